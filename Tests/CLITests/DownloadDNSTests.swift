import Foundation
import GalleryTestSupport
import Testing

/// `download` and `run --urls` resolving through `--dns-server`: names only the test resolver knows are
/// fetched (through a redirect too), each asked once, and link-local addresses are refused by default.
@Suite struct DownloadDNSTests {
    @Test func downloadAndRunResolveThroughTheGivenServer() async throws {
        let server = try FaultServer()
        let body = DownloadCLI.bytes(30_000, seed: 3)
        for i in 0..<4 { server.route("/p/\(i).jpg") { _, _ in .file(body, etag: "\"\(i)\"") } }
        server.route("/moved.jpg") { _, _ in .redirect(to: "http://cdn.only-here.test:\(server.port)/p/3.jpg") }
        let dns = try TestDNSServer()
        dns.set("photos.only-here.test", .address(v4: ["127.0.0.1"], ttl: 60))
        dns.set("cdn.only-here.test", .address(v4: ["127.0.0.1"], ttl: 60))
        dns.set("metadata.only-here.test", .address(v4: ["169.254.169.254"], ttl: 60))
        let work = try TempDirectory()
        let urls = (0..<3).map { "http://photos.only-here.test:\(server.port)/p/\($0).jpg" }
            + ["http://photos.only-here.test:\(server.port)/moved.jpg"]
        let list = try work.write(Array(urls.joined(separator: "\n").utf8), to: "urls.txt")
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("out"), "--dns-server", dns.address, "--quiet"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        #expect(try work.read("out/0.jpg") == body && work.read("out/moved.jpg") == body)
        #expect(dns.questions("photos.only-here.test", .a) == 1 && dns.questions("cdn.only-here.test", .a) == 1)

        let metadata = try work.write(Array("http://metadata.only-here.test/latest/meta-data/\n".utf8), to: "meta.txt")
        let refused = try await DownloadCLI.run(["download", "--urls", metadata, "--out", work.file("meta"), "--dns-server", dns.address,
                                                 "--any-file", "--quiet"], timeout: 60)
        #expect(refused.exitCode == 1)
        #expect(refused.stderrText.contains("refused to connect to 169.254.169.254 (link-local)"), "\(refused.stderrText)")

        let dead = try TestDNSServer()  // answers nothing and keeps its port for the next test's server
        defer { dead.stop() }
        dead.answersPerSecond = 0
        let deadAddress = dead.address
        let stopped = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("none"), "--dns-server", deadAddress])
        #expect(stopped.exitCode == 3 && stopped.stderrText.contains("the DNS resolver \(deadAddress) did not answer"), "\(stopped.stderrText)")
        let run = try await DownloadCLI.run(["run", "--urls", list, "--out", work.file("gallery"), "--dns-server", deadAddress])
        #expect(run.exitCode == 3, "\(run.stderrText)")
    }
}
