import Foundation
import GalleryTestSupport
import Testing

/// `download` over https against nginx with HTTP/2 and a self-signed certificate: trusted with
/// `--ca-certificates`, refused (exit 1, one clear line) without it.
@Suite struct DownloadHTTPSTests {
    @Test func httpsWithTheServersCertificateDownloadsByteExact() async throws {
        let root = try TempDirectory()
        let bodies = (0..<4).map { DownloadCLI.bytes(30_000 + $0 * 1000, seed: UInt64($0 + 40)) }
        for (i, b) in bodies.enumerated() { try root.write(b, to: "s\(i).jpg") }
        let nginx = try NginxServer(root: root.path, tls: true)
        let work = try TempDirectory()
        let list = try work.write(Array((0..<4).map { nginx.url("/s\($0).jpg") }.joined(separator: "\n").utf8), to: "urls.txt")
        let ca = try #require(nginx.certificatePath)

        let trusted = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("ok"), "--quiet",
                                                 "--ca-certificates", ca])
        #expect(trusted.exitCode == 0, "\(trusted.stderrText)")
        for (i, b) in bodies.enumerated() { #expect(try work.read("ok/s\(i).jpg") == b) }
        #expect(Set(nginx.accessLog().map(\.serverProtocol)) == ["HTTP/2.0"])

        let untrusted = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("no"), "--quiet"])
        #expect(untrusted.exitCode == 1)
        let lines = untrusted.stderrText.split(separator: "\n")
        #expect(lines.count == 4, "\(untrusted.stderrText)")
        #expect(lines.allSatisfy { $0.contains("TLS certificate not verified") }, "\(untrusted.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: work.file("no/s0.jpg")))
    }

    /// Under a certificate from a test CA given with --ca-certificates: 12 files ride one HTTP/2 connection.
    /// Under an expired one: one line per URL naming it and the cause, one connection per URL (no retries).
    @Test func aTestCAsCertificatesOneConnectionAndAnExpiredOneFailsOncePerURL() async throws {
        let ca = try TestCertificateAuthority()
        let root = try TempDirectory()
        let bodies = (0..<12).map { DownloadCLI.bytes(50_000 + $0 * 999, seed: UInt64($0 + 60)) }
        for (i, b) in bodies.enumerated() { try root.write(b, to: "c\(i).jpg") }
        let work = try TempDirectory()

        let nginx = try NginxServer(root: root.path, certificate: try ca.issue())
        let list = try work.write(Array((0..<12).map { nginx.url("/c\($0).jpg") }.joined(separator: "\n").utf8), to: "urls.txt")
        let before = try #require(nginx.acceptedConnections())
        let ok = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("ok"), "--quiet",
                                            "--ca-certificates", ca.certificatePath])
        #expect(ok.exitCode == 0, "\(ok.stderrText)")
        for (i, b) in bodies.enumerated() { #expect(try work.read("ok/c\(i).jpg") == b) }
        let log = nginx.accessLog()
        #expect(log.count == 12 && Set(log.map(\.serverProtocol)) == ["HTTP/2.0"])
        #expect(Set(log.map(\.connection)).count == 1, "\(log.map(\.connection))")
        #expect(nginx.acceptedConnections().map { $0 - before } == 1)

        let expired = try NginxServer(root: root.path, certificate: try ca.issue(.expired))
        let urls = (0..<4).map { expired.url("/c\($0).jpg") }
        let badList = try work.write(Array(urls.joined(separator: "\n").utf8), to: "expired.txt")
        let start = try #require(expired.acceptedConnections())
        let bad = try await DownloadCLI.run(["download", "--urls", badList, "--out", work.file("no"), "--quiet",
                                             "--ca-certificates", ca.certificatePath])
        #expect(bad.exitCode == 1)
        let lines = bad.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(bad.stderrText)")
        for url in urls {
            #expect(lines.contains { $0.contains(url + ": TLS certificate not verified: the server's certificate has expired") },
                    "\(url): \(bad.stderrText)")
        }
        #expect(!lines.contains { $0.contains("attempts") }, "retried: \(bad.stderrText)")
        #expect(expired.acceptedConnections().map { $0 - start } == 4, "one connection per URL")
        #expect(expired.accessLog().isEmpty)
    }

    @Test func anUnreadableCAFileIsAUsageError() async throws {
        let work = try TempDirectory()
        let list = try work.write(Array("https://127.0.0.1:1/x.jpg\n".utf8), to: "urls.txt")
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("o"),
                                           "--ca-certificates", work.file("missing.pem")])
        #expect(r.exitCode == 2)
        #expect(r.stderrText.contains("missing.pem"))
    }
}
