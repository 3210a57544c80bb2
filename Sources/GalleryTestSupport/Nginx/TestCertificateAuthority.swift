import Foundation
import GallerySync

/// A throwaway certificate authority for TLS tests, made with the openssl command: its certificate is
/// what a client is told to trust (`--ca-certificates`), and it signs server certificates that are valid,
/// long expired, or for another host, so each TLS failure a real client meets can be served by nginx.
///
/// ```swift
/// let ca = try TestCertificateAuthority()
/// let nginx = try NginxServer(root: folder.path, certificate: try ca.issue(.expired))
/// // fetch-gallery download --ca-certificates ca.certificatePath ...  -> "certificate has expired"
/// ```
public final class TestCertificateAuthority: Sendable {
    /// A server certificate and its private key (PEM files), signed by the authority.
    public struct ServerCertificate: Sendable {
        public let certificate: String
        public let key: String
        /// The authority's certificate, to trust on the client side.
        public let authority: String
    }

    /// What kind of server certificate to issue.
    public enum Kind: Sendable {
        /// For 127.0.0.1 and localhost, valid from yesterday for two days.
        case valid
        /// For 127.0.0.1 and localhost, valid only on 1 and 2 January 2020.
        case expired
        /// Valid, but for `wrong.example` and 127.0.0.2, not for the 127.0.0.1 the client connects to.
        case wrongHost
    }

    /// Holds the keys, the certificates and openssl's CA database.
    public let directory: TempDirectory
    /// The authority's own certificate (PEM): give this to the client.
    public let certificatePath: String
    private let keyPath: String
    /// Serial numbers for file names; held while issuing, since openssl's CA database is not safe to
    /// share between concurrent `openssl ca` runs.
    private let issuing = Locked(0)

    /// Makes a new authority (a P-256 key and a self-signed CA certificate valid for two days).
    public init() throws(TestSupportError) {
        directory = try TempDirectory(prefix: "test-ca")
        certificatePath = directory.file("ca.pem")
        keyPath = directory.file("ca.key")
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-days", "2", "-subj", "/CN=fetch-gallery test CA", "-keyout", keyPath, "-out", certificatePath])
        let config = """
        [ ca ]
        default_ca = testca
        [ testca ]
        database = \(directory.file("index.txt"))
        new_certs_dir = \(directory.path)
        serial = \(directory.file("serial"))
        default_md = sha256
        policy = anything
        copy_extensions = copy
        unique_subject = no
        [ anything ]
        commonName = supplied

        """
        do {
            _ = try directory.write(Array(config.utf8), to: "ca.cnf")
            _ = try directory.write([], to: "index.txt")
            _ = try directory.write(Array("01\n".utf8), to: "serial")
        } catch {
            throw .launchFailed(executable: "openssl", reason: "cannot write the CA files in \(directory.path): \(error)")
        }
    }

    /// Issues a server certificate of `kind` (a new key each time).
    public func issue(_ kind: Kind = .valid) throws(TestSupportError) -> ServerCertificate {
        try issuing.withLock { (n: inout Int) throws(TestSupportError) -> ServerCertificate in
            n += 1
            return try issue(kind, number: n)
        }
    }

    private func issue(_ kind: Kind, number n: Int) throws(TestSupportError) -> ServerCertificate {
        let key = directory.file("server\(n).key"), request = directory.file("server\(n).csr")
        let certificate = directory.file("server\(n).pem")
        let names = kind == .wrongHost ? "DNS:wrong.example,IP:127.0.0.2" : "DNS:localhost,IP:127.0.0.1"
        try Self.openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-subj", "/CN=server \(n)", "-addext", "subjectAltName=\(names)",
                          "-keyout", key, "-out", request])
        // `openssl ca` rather than `x509 -req`: OpenSSL 3.0's x509 cannot set a start date in the past.
        let dates = kind == .expired
            ? ["-startdate", "20200101000000Z", "-enddate", "20200102000000Z"]
            : ["-startdate", Self.yesterday, "-days", "2"]
        try Self.openssl(["ca", "-batch", "-notext", "-config", directory.file("ca.cnf"), "-cert", certificatePath,
                          "-keyfile", keyPath, "-in", request, "-out", certificate] + dates)
        return ServerCertificate(certificate: certificate, key: key, authority: certificatePath)
    }

    /// Yesterday as an ASN.1 time: a certificate starting now may look not yet valid to a client whose
    /// clock is a second behind.
    private static var yesterday: String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMddHHmmss'Z'"
        return f.string(from: Date().addingTimeInterval(-86_400))
    }

    private static func openssl(_ arguments: [String]) throws(TestSupportError) {
        let result = try ProcessRunner("/usr/bin/openssl", arguments).wait(timeout: 30)
        guard result.status == 0 else {
            throw .launchFailed(executable: "openssl \(arguments.first ?? "")", reason: result.stderrText)
        }
    }
}
