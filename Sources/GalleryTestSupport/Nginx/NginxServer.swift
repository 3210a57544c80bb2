import Foundation
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// Debian's nginx (`/usr/sbin/nginx`) serving a folder on 127.0.0.1, as a real-server
/// counterpart to `FaultServer`: real Range / If-Range / strong ETag / 304 / 416 handling,
/// sendfile and keep-alive, with `$body_bytes_sent` read back from its access log.
///
/// ```swift
/// let nginx = try NginxServer(root: folder.path)
/// // ... download nginx.url("/photo.jpg") twice, resuming the second time ...
/// let log = nginx.waitForRequests(path: "/photo.jpg", count: 2)
/// #expect(log[1].bodyBytesSent == missingBytes)
/// ```
///
/// It runs in the foreground (`daemon off; master_process off;`) as a child of the test
/// process; config, pid, logs and temp folders live in a private temp folder. `stop()` (also
/// run by `deinit`) ends it.
public final class NginxServer: Sendable {
    /// Where Debian's nginx package (Scripts/bootstrap installs nginx-light) puts the binary.
    public static let binary = "/usr/sbin/nginx"

    /// The port nginx listens on.
    public let port: Int
    /// The folder being served.
    public let root: String
    /// The private folder holding nginx.conf, access.log and error.log.
    public let directory: TempDirectory
    /// The certificate (PEM) a client must trust for this TLS server: the self-signed one made for
    /// `tls: true`, or the authority that signed `certificate`; nil for plain http.
    public let certificatePath: String?
    /// A TLS server's stub_status port (plain http), read by `acceptedConnections()`.
    public let statusPort: Int?
    private let process: ProcessRunner
    private let statusReads = Locked(0)

    /// Starts nginx serving `root` on a free port and waits (up to 10 s) until it accepts
    /// connections. `extraServerDirectives` is pasted into the `server` block, e.g.
    /// `"location /slow/ { limit_rate 10k; }"`. Throws `.nginxMissing` when `binary` is absent
    /// and `.nginxDidNotStart` (with nginx's error log) when it will not run. With `tls`, it serves
    /// https with HTTP/2 (ALPN) under a fresh self-signed certificate for 127.0.0.1 (`certificatePath`);
    /// with `certificate` (from a `TestCertificateAuthority`), under that one. `port` reuses a known port
    /// (a server restarted in place); by default a free one is found.
    public init(root: String, extraServerDirectives: String = "", tls: Bool = false,
                certificate: TestCertificateAuthority.ServerCertificate? = nil, port fixedPort: Int? = nil,
                binary: String = NginxServer.binary) throws(TestSupportError)
    {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw .nginxMissing(path: binary)
        }
        self.root = root
        directory = try TempDirectory(prefix: "nginx")
        var keys: (certificate: String, key: String)?
        if let certificate {
            keys = (certificate.certificate, certificate.key)
        } else if tls {
            keys = try Self.makeCertificate(in: directory)
        }
        certificatePath = certificate?.authority ?? keys?.certificate
        var lastFailure = TestSupportError.nginxDidNotStart(port: 0, reason: "not tried", log: "")
        // The port is found by binding port 0 and closing; another process may grab it before
        // nginx binds, so a start that failed on "Address already in use" is retried on a new port.
        for _ in 0..<(fixedPort == nil ? 3 : 1) {
            let port: UInt16
            if let fixedPort { port = UInt16(fixedPort) } else { port = try Socket.freeLoopbackPort() }
            let status = keys == nil ? nil : try Socket.freeLoopbackPort()
            do {
                process = try Self.launch(binary: binary, port: port, root: root, directory: directory,
                                          extra: extraServerDirectives, tls: keys, statusPort: status)
                self.port = Int(port)
                statusPort = status.map(Int.init)
                return
            } catch {
                lastFailure = error
                guard case .nginxDidNotStart(_, _, let log) = error, log.contains("Address already in use") else {
                    throw error
                }
            }
        }
        throw lastFailure
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` (`https://` with TLS), no trailing slash.
    public var baseURL: String { "\(certificatePath == nil ? "http" : "https")://127.0.0.1:\(port)" }

    /// `baseURL` + `path` (which should start with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    /// Every access-log entry written so far, in order.
    public func accessLog() -> [LogEntry] {
        let text = (try? String(contentsOfFile: directory.file("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { LogEntry(line: String($0)) }
    }

    /// Access-log entries for `path`.
    public func requests(path: String) -> [LogEntry] {
        accessLog().filter { $0.path == path }
    }

    /// Sum of `$body_bytes_sent` over the requests for `path` logged so far.
    public func bodyBytesSent(path: String) -> Int {
        requests(path: path).reduce(0) { $0 + $1.bodyBytesSent }
    }

    /// nginx writes a log line only after the response is sent, so a client can finish before
    /// its line exists; this waits (up to `timeout`) until `count` entries for `path` are logged.
    public func waitForRequests(path: String, count: Int, timeout: Double = 5) -> [LogEntry] {
        let deadline = Date().addingTimeInterval(timeout)
        var entries = requests(path: path)
        while entries.count < count && Date() < deadline {
            usleep(10_000)
            entries = requests(path: path)
        }
        return entries
    }

    /// TCP connections nginx has accepted on its https port so far (stub_status's "accepts", less the
    /// status requests themselves and the harness's readiness probe), TLS failures included: how many
    /// times a client connected. Nil for plain http or when the status cannot be read.
    public func acceptedConnections() -> Int? {
        guard let statusPort,
              let result = try? ProcessRunner("/usr/bin/curl", ["-s", "http://127.0.0.1:\(statusPort)/"]).wait(timeout: 10),
              result.status == 0 else { return nil }
        // "Active connections: 1 \nserver accepts handled requests\n 7 7 9 \n..."
        let lines = result.stdoutText.split(separator: "\n")
        guard lines.count >= 3, let accepts = lines[2].split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
        let before = statusReads.withLock { n -> Int in
            n += 1
            return n
        }
        return accepts - before - 1
    }

    /// TLS handshakes a client broke off (an unverified certificate), from the error log (a TLS server
    /// logs at `info`): how many times a client tried a server it should not trust.
    public func failedHandshakes() -> Int {
        errorLog.components(separatedBy: "SSL_do_handshake() failed").count - 1
    }

    /// The error log so far (startup problems, file-not-found details).
    public var errorLog: String {
        (try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? ""
    }

    /// Asks nginx to quit (SIGTERM), SIGKILLing it if it has not exited within 5 s.
    public func stop() {
        process.send(SIGTERM)
        _ = process.wait(timeout: 5)
    }

    /// A self-signed EC certificate for the IP address 127.0.0.1, made with the openssl command.
    private static func makeCertificate(in directory: TempDirectory) throws(TestSupportError)
        -> (certificate: String, key: String)
    {
        let certificate = directory.file("cert.pem"), key = directory.file("key.pem")
        let arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                         "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                         "-keyout", key, "-out", certificate]
        let result = try ProcessRunner("/usr/bin/openssl", arguments).wait(timeout: 30)
        guard result.status == 0 else {
            throw .nginxDidNotStart(port: 0, reason: "openssl could not make a certificate: \(result.stderrText)", log: "")
        }
        return (certificate, key)
    }

    private static func launch(binary: String, port: UInt16, root: String, directory: TempDirectory,
                               extra: String, tls: (certificate: String, key: String)?,
                               statusPort: UInt16?) throws(TestSupportError)
        -> ProcessRunner
    {
        let config = NginxConfig(port: port, root: root, directory: directory.path, extraServerDirectives: extra,
                                 tls: tls, statusPort: statusPort)
        let configPath = directory.file("nginx.conf")
        do {
            try config.text.write(toFile: configPath, atomically: true, encoding: .utf8)
        } catch {
            throw .nginxDidNotStart(port: Int(port), reason: "cannot write \(configPath): \(error)", log: "")
        }
        // -e: the error log before the config is read, else nginx opens its built-in path.
        let process = try ProcessRunner(
            binary, ["-p", directory.path + "/", "-c", configPath, "-e", directory.file("error.log")])
        // nginx writes its pid file only after binding its port, so "pid file names our child
        // and the port answers" cannot be fooled by another process holding the port.
        let pidPath = directory.file("nginx.pid")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let pid = (try? String(contentsOfFile: pidPath, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if pid == String(process.pid), Socket.canConnect(port: port) { return process }
            if process.hasExited { break }
            usleep(20_000)
        }
        process.send(SIGKILL)
        let result = process.wait(timeout: 5)
        let log = (try? String(contentsOfFile: directory.file("error.log"), encoding: .utf8)) ?? ""
        throw .nginxDidNotStart(
            port: Int(port), reason: "exit status \(result.status), stderr: \(result.stderrText)", log: log)
    }
}
