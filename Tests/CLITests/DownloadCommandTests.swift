import Foundation
import GalleryTestSupport
import Testing

/// The `download` command end to end: exit codes, failure lines, names, progress formats, skipping.
@Suite struct DownloadCommandTests {
    func fixture() throws -> (FaultServer, TempDirectory, String, [[UInt8]]) {
        let server = try FaultServer()
        let bodies = (0..<3).map { DownloadCLI.bytes(40_000 + $0, seed: UInt64($0 + 1)) }
        for (i, b) in bodies.enumerated() { server.route("/a/\(i).jpg") { _, _ in .file(b, etag: "\"\(i)\"") } }
        server.route("/b/0.jpg") { _, _ in .file(bodies[0], etag: "\"0\"") }
        server.route("/missing.jpg") { _, _ in .status(404, text: "no") }
        let work = try TempDirectory()
        let text = """
        # a comment
        \(server.url("/a/0.jpg"))

        \(server.url("/a/1.jpg"))
        \(server.url("/a/2.jpg?size=large"))
        \(server.url("/b/0.jpg"))
        """
        let list = try work.write(Array(text.utf8), to: "urls.txt")
        return (server, work, list, bodies)
    }

    @Test func downloadsEverythingAndExitsZero() async throws {
        let (server, work, list, bodies) = try fixture()
        let out = work.file("out")
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", out, "--progress", "plain"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        #expect(try work.read("out/0.jpg") == bodies[0])
        #expect(try work.read("out/1.jpg") == bodies[1])
        #expect(try work.read("out/2.jpg") == bodies[2])
        #expect(try work.read("out/0-2.jpg") == bodies[0])
        // Not a terminal: plain lines, no escape sequences or carriage returns.
        #expect(!r.stderrText.contains("\u{1B}") && !r.stderrText.contains("\r"))
        #expect(r.stderrText.contains("done: 4/4 files"))
        // A second run finds everything complete and sends nothing.
        let before = server.totalBodyBytesSent
        let again = try await DownloadCLI.run(["download", "--urls", list, "--out", out, "--quiet"])
        #expect(again.exitCode == 0 && again.stderrText.isEmpty && again.stdoutText.isEmpty)
        #expect(server.totalBodyBytesSent == before)
    }

    @Test func failuresExitOneWithOneLineEach() async throws {
        let (server, work, _, _) = try fixture()
        let list = try work.write(Array("\(server.url("/missing.jpg"))\n\(server.url("/a/1.jpg"))\nftp://x/y.jpg\n".utf8), to: "bad.txt")
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("o"), "--quiet"])
        #expect(r.exitCode == 1)
        let lines = r.stderrText.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stderrText)")
        #expect(lines.contains { $0.contains(server.url("/missing.jpg")) && $0.contains("HTTP 404") })
        #expect(lines.contains { $0.contains("ftp://x/y.jpg") && $0.contains("not allowed") })
    }

    @Test func jsonProgressIsOneObjectPerLine() async throws {
        // The server must outlive the run (dropping it stops it).
        let (server, work, list, _) = try fixture()
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("o"), "--progress", "json"])
        withExtendedLifetime(server) {}
        #expect(r.exitCode == 0, "\(r.stderrText) \(r.stdoutText)")
        let objects = try r.stdoutText.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.filter { $0["event"] as? String == "file" }.count == 4)
        let done = try #require(objects.last)
        #expect(done["event"] as? String == "done")
        #expect(done["files_done"] as? Int == 4 && done["failed"] as? Int == 0)
    }

    @Test func missingListIsAUsageError() async throws {
        let work = try TempDirectory()
        let r = try await DownloadCLI.run(["download", "--urls", work.file("nope.txt"), "--out", work.file("o")])
        #expect(r.exitCode != 0 && r.exitCode != 1)
        #expect(r.stderrText.contains("nope.txt"))
    }
}

extension DownloadCommandTests {
    /// The terminal renderer redraws one line in place (carriage return + erase line) and clears it at the end.
    @Test func terminalProgressRedrawsOneLineAndClearsIt() async throws {
        let server = try FaultServer()
        let body = DownloadCLI.bytes(60_000, seed: 7)
        server.route("/slow.jpg") { _, _ in .file(body).trickle(bytesPerSecond: 150_000) }
        let work = try TempDirectory()
        let list = try work.write(Array(server.url("/slow.jpg").utf8), to: "urls.txt")
        let r = try await DownloadCLI.run(["download", "--urls", list, "--out", work.file("o"), "--progress", "tty"])
        #expect(r.exitCode == 0)
        let err = r.stderrText
        #expect(err.contains("\r\u{1B}[2K0/1 files"))
        #expect(err.hasSuffix("\r\u{1B}[2K"))
        #expect(!err.contains("\n"))
        // At most ~10 redraws a second over the ~0.4 s run (plus the final clear).
        #expect(err.components(separatedBy: "\r").count <= 12)
    }
}
