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

    @Test func anUnreadableCAFileIsAUsageError() async throws {
        let work = try TempDirectory()
        let list = try work.write(Array("https://127.0.0.1:1/x.jpg\n".utf8), to: "urls.txt")
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("o"),
                                           "--ca-certificates", work.file("missing.pem")])
        #expect(r.exitCode == 2)
        #expect(r.stderrText.contains("missing.pem"))
    }
}
