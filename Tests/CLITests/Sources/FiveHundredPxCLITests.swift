import Foundation
import GalleryTestSupport
import Testing

/// `--source 500px` is today's API (the default with `--api` alone): the same gallery either way, the
/// consumer key (sent in the URL) redacted from errors, `--user-agent` sent on API and image requests.
@Suite struct FiveHundredPxCLITests {
    @Test func sourceFiveHundredPxIsTheAPIDefault() async throws {
        let api = try GalleryCLIKit(pages: 2, perPage: 2)
        let dir = try TempDirectory()
        let plain = try SourceCLIKit.run(["--api", api.server.baseURL, "--pages", "2"], out: dir.file("a"))
        let named = try SourceCLIKit.run(["--source", "500px", "--api", api.server.baseURL, "--pages", "2",
                                          "--user-agent", "gallery-bot/1.0 (+https://example.org/bot)"], out: dir.file("b"))
        #expect(plain.exitCode == 0 && named.exitCode == 0, "\(plain.stderrText) \(named.stderrText)")
        let a = try GalleryCLIKit.manifestPhotos(dir.file("a")).map { $0["original"] as? String ?? "" }
        let b = try GalleryCLIKit.manifestPhotos(dir.file("b")).map { $0["original"] as? String ?? "" }
        #expect(a == b && a.count == 4, "same files, same layout")
        let agents = Set(api.server.allRequests.suffix(6).map { $0.headers["User-Agent"] ?? "" })
        #expect(agents == ["gallery-bot/1.0 (+https://example.org/bot)"], "\(agents)")
    }

    @Test func consumerKeyIsRedactedFromErrors() async throws {
        let server = try FaultServer()
        server.route("/photos") { _, _ in .status(200, headers: ["Content-Type": "text/html"], text: "<html>login</html>") }
        let dir = try TempDirectory()
        let key = "consumer-key-abc123456"
        let result = try SourceCLIKit.run(["--api", server.baseURL, "--consumer-key", key], out: dir.file("g"))
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("consumer_key=REDACTED"), "\(result.stderrText)")
        #expect(server.requests(path: "/photos").first?.query?.contains(key) == true, "the key is still sent")
        SourceCLIKit.expectNowhere(key, in: dir.file("g"), result)
    }

    @Test func sourceFiveHundredPxNeedsAnAPI() async throws {
        let dir = try TempDirectory()
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["--source", "500px", "--out", dir.file("g")], timeout: 30)
        #expect(result.exitCode == 2 && result.stderrText.contains("--api"))
    }

    @Test func servicesRefuseShards() async throws {
        let dir = try TempDirectory()
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["--source", "openverse", "--query", "x", "--shard", "0/2",
                                                                  "--out", dir.file("g")], timeout: 30)
        #expect(result.exitCode == 2 && result.stderrText.contains("--shard"))
    }
}
