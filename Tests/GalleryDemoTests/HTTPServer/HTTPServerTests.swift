import Foundation
import GalleryHTTPServer
import GallerySync
import GallerySystem
import GalleryTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP server under the demo catalogue and `serve`, checked with curl and with raw bytes on a socket
/// (for what curl never sends: pipelined requests, malformed heads).
@Suite("HTTP server")
struct HTTPServerTests {
    static func start(_ handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
        try HTTPServer.start(.init(host: "127.0.0.1", port: 0, serverName: "test")) { request in await handler(request) }
    }

    static let echo: HTTPServer.Handler = { request in
        .text(200, "\(request.method) \(request.path) q=\(request.queryValues("q").joined(separator: "|"))\n")
    }

    @Test func pipelinedRequestsOnOneConnectionAreAnsweredInOrder() async throws {
        let server = try Self.start(Self.echo)
        defer { Task { await server.stop() } }
        let reply = try await RawHTTP.exchange(port: server.port, """
            GET /a?q=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /b?q=%C3%A9&q=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n
            """)
        let statuses = reply.components(separatedBy: "HTTP/1.1 200 OK").count - 1
        #expect(statuses == 3, "\(reply)")
        #expect(reply.contains("GET /a q=1\n"))
        #expect(reply.contains("GET /b q=é|2\n"))
        #expect(reply.hasSuffix("GET /c q=\n"), "\(reply)")
        #expect(reply.contains("Connection: close"))
    }

    @Test func aHeadAnswerHasTheLengthButNoBody() async throws {
        let server = try Self.start(Self.echo)
        defer { Task { await server.stop() } }
        // The GET's answer must follow the HEAD's head directly: a body sent for HEAD would sit in between.
        let reply = try await RawHTTP.exchange(port: server.port, """
            HEAD /h HTTP/1.1\r\nHost: x\r\n\r\nGET /g HTTP/1.1\r\nConnection: close\r\n\r\n
            """)
        let answers = reply.components(separatedBy: "HTTP/1.1 200 OK\r\n")
        #expect(answers.count == 3, "\(reply)")
        #expect(answers[1].contains("Content-Length: 11\r\n"), "\(answers[1])")  // "HEAD /h q=\n"
        #expect(answers[1].hasSuffix("\r\n\r\n"), "a HEAD answer carried a body: \(answers[1])")
        #expect(answers[2].hasSuffix("\r\n\r\nGET /g q=\n"), "\(answers[2])")
    }

    @Test func aFileBodyIsSentFromItsOffset() async throws {
        let folder = try TempDirectory(prefix: "http-server")
        defer { folder.remove() }
        let path = folder.file("bytes")
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let server = try Self.start { _ in
            HTTPServerResponse(status: 206, headers: [("Content-Type", "application/octet-stream")],
                               body: .file(path: path, offset: 1_000, count: 50_000))
        }
        defer { Task { await server.stop() } }
        let response = try await DemoCurl.run(["http://127.0.0.1:\(server.port)/f"])
        #expect(response.status == 206)
        #expect(response[header: "Content-Length"] == "50000")
        #expect(response.body == Array(bytes[1_000..<51_000]))
    }

    @Test func aMissingFileIsAnsweredWith500() async throws {
        let server = try Self.start { _ in HTTPServerResponse(status: 200, body: .file(path: "/nonexistent/f", offset: 0, count: 10)) }
        defer { Task { await server.stop() } }
        let response = try await DemoCurl.run(["http://127.0.0.1:\(server.port)/f"])
        #expect(response.status == 500)
        #expect(response.text.contains("/nonexistent/f"))
    }

    @Test(arguments: [
        ("GET /a\r\n\r\n", "400 Bad Request"),
        ("GET /a HTTP/2.0\r\n\r\n", "400 Bad Request"),
        ("GET /a HTTP/1.1\r\nno colon here\r\n\r\n", "400 Bad Request"),
        ("GET /a HTTP/1.1\r\nContent-Length: x\r\n\r\n", "400 Bad Request"),
        ("POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "501 Not Implemented"),
        // Far more than is read before the refusal: unread bytes at the close would reset the connection, answer and all.
        ("GET /a HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 1_000_000) + "\r\n\r\n", "431 Request Header Fields Too Large"),
    ])
    func aBadRequestIsRefusedAndClosed(request: String, status: String) async throws {
        let server = try Self.start(Self.echo)
        defer { Task { await server.stop() } }
        let reply = try await RawHTTP.exchange(port: server.port, request)
        #expect(reply.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(reply.prefix(200))")
        #expect(reply.contains("Connection: close\r\n"))
    }

    @Test func aRequestBodyIsSkippedAndTheNextRequestRead() async throws {
        let server = try Self.start(Self.echo)
        defer { Task { await server.stop() } }
        let reply = try await RawHTTP.exchange(port: server.port, """
            POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /n HTTP/1.1\r\nConnection: close\r\n\r\n
            """)
        #expect(reply.contains("POST /p q=\n"), "\(reply)")
        #expect(reply.hasSuffix("GET /n q=\n"), "\(reply)")
    }

    @Test func stoppingFinishesAnAnswerInProgressAndClosesIdleConnections() async throws {
        let answering = Locked(false)
        let server = try Self.start { request in
            if request.path == "/slow" {
                answering.withLock { $0 = true }
                try? await Task.sleep(for: .seconds(1.5))
            }
            return .text(200, "done \(request.path)\n")
        }
        let idle = try RawHTTP.connect(port: server.port)
        defer { Syscall.closeQuietly(idle) }
        async let slow = DemoCurl.run(["http://127.0.0.1:\(server.port)/slow"])
        // Stop only once the slow answer is under way (curl may take a while to start on a busy machine).
        let waiting = ContinuousClock.now
        while !answering.withLock({ $0 }), ContinuousClock.now - waiting < .seconds(30) { try await Task.sleep(for: .milliseconds(20)) }
        let started = ContinuousClock.now
        await server.stop(grace: 10)
        #expect(ContinuousClock.now - started < .seconds(5))
        let answer = try await slow
        #expect(answer.status == 200)
        #expect(answer.text == "done /slow\n")
        #expect(answer[header: "Connection"] == "close")
        // The idle connection was closed: a read ends at once (not after its 60 s limit).
        let reading = ContinuousClock.now
        #expect(RawHTTP.readToEnd(idle).isEmpty)
        #expect(ContinuousClock.now - reading < .seconds(3))
        let refused = try await DemoCurl.run(["http://127.0.0.1:\(server.port)/again"], allowNoResponse: true)
        #expect(refused.status == 0)
    }

    @Test func anIPv6AddressIsListenedOnBracketedOrNot() async throws {
        for host in ["[::1]", "::1"] {
            let server = try HTTPServer.start(.init(host: host, port: 0, serverName: "six"), handler: Self.echo)
            let response = try await DemoCurl.run(["-g", "http://[::1]:\(server.port)/six?q=6"])
            await server.stop()
            #expect(response.status == 200, "\(host)")
            #expect(response.text == "GET /six q=6\n")
        }
    }

    @Test func aPortInUseIsAnErrorNamingIt() throws {
        let first = try Self.start(Self.echo)
        defer { Task { await first.stop() } }
        #expect {
            _ = try HTTPServer.start(.init(host: "127.0.0.1", port: first.port, serverName: "second")) { _ in .text(200, "") }
        } throws: { error in
            "\(error)".contains("cannot listen on 127.0.0.1:\(first.port): bind: Address already in use")
        }
    }
}

/// Raw bytes over a TCP connection to 127.0.0.1.
enum RawHTTP {
    static func connect(port: Int) throws -> Int32 {
        // Close-on-exec: a child another suite spawns (serve-demo, curl) must not inherit the connection.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            Syscall.closeQuietly(fd)
            throw DemoTestFailure("connect to port \(port): errno \(errno)")
        }
        return fd
    }

    /// Sends `request` and reads until the server closes (on a Dispatch thread, not the cooperative pool).
    static func exchange(port: Int, _ request: String) async throws -> String {
        let fd = try connect(port: port)
        return await withHandOffContinuation { continuation in
            DispatchQueue.global().async {
                defer { Syscall.closeQuietly(fd) }
                let bytes = Array(request.utf8)
                _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                continuation.resume(returning: String(decoding: readToEnd(fd), as: UTF8.self))
            }
        }
    }

    /// Everything the peer sends until it closes (at most 60 s: the handlers run on the cooperative threads,
    /// which the demo's renders in parallel suites can hold for many seconds; a reply came back empty
    /// after 10 s once in CI).
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return result }
            result += chunk[..<n]
        }
    }
}
