import Foundation
import GalleryTestSupport
import Testing

/// Ctrl-C on the main command: once writes the gallery for what is done and exits 130, keeping the
/// partial downloads; twice quits at once.
@Suite struct GallerySignalTests {
    /// Two quick photos (ids 1, 2) and two camera photos (3, 4) that trickle for about 15 s each.
    static func trickleAPI() throws -> GalleryCLIKit {
        let api = try GalleryCLIKit(pages: 1, perPage: 4, corpusFiles: [
            "png-suite/basn2c08.png", "libjpeg-turbo/testorig.jpg",
            "exif-orientation/Landscape_1.jpg", "exif-orientation/Portrait_1.jpg",
        ])
        for id in [3, 4] {
            let bytes = try Corpus.bytes(api.files[id]!)
            api.server.route(api.imagePath(id)) { _, _ in
                .file(bytes, etag: "\"\(id)\"", contentType: "image/jpeg").trickle(bytesPerSecond: 20_000)
            }
        }
        return api
    }

    static func arguments(_ api: GalleryCLIKit, _ out: String) -> [String] {
        ["--api", api.server.baseURL, "--pages", "1", "--out", out, "--progress", "none", "--workers", "2", "--size", "64"]
    }

    static func trickling(_ api: GalleryCLIKit) -> Bool {
        [3, 4].allSatisfy { api.server.bodyBytesSent(path: api.imagePath($0)) >= 20_000 }
    }

    // Off the cooperative pool: other CLI tests block its two threads for seconds while they wait for
    // their processes, and a late SIGINT finds the trickling run already finished.
    @Test(.disabled(if: Sanitizer.active,
                   "under a sanitizer: its 20 s wait for the trickle and 5 s stop bound are wall-clock; sanitized binaries on a loaded machine miss them"))
    func sigintWritesTheGalleryAndExits130() async throws {
        try await DedicatedTaskExecutor.offPool { try await Self.stopOnce(SIGINT, status: 130) }
    }

    /// SIGTERM (a scheduler ending the job) stops the run the same way, with status 143.
    @Test(.disabled(if: Sanitizer.active, "under a sanitizer: wall-clock bounds, as above"))
    func sigtermWritesTheGalleryAndExits143() async throws {
        try await DedicatedTaskExecutor.offPool { try await Self.stopOnce(SIGTERM, status: 143) }
    }

    static func stopOnce(_ signal: Int32, status: Int32) async throws {
        let api = try Self.trickleAPI()
        let dir = try TempDirectory()
        let out = dir.file("g")
        let runner = try ProcessRunner(GalleryCLIKit.binary, Self.arguments(api, out))
        try await GalleryCLIKit.waitFor(20) { Self.trickling(api) || runner.hasExited }
        // The quick photos are done long before the slow ones have sent 20 kB.
        try await GalleryCLIKit.waitFor(5) { FileManager.default.fileExists(atPath: out + "/thumbs/64") }
        let sentAt = Date()
        runner.send(signal)
        let result = runner.wait(timeout: 20)
        let took = Date().timeIntervalSince(sentAt)
        #expect(result.exitCode == status, "stderr: \(result.stderrText)")
        #expect(took < 5, "stopping took \(took) s")
        let photos = try GalleryCLIKit.manifestPhotos(out)
        let ok = photos.filter { $0["status"] as? String == "ok" }.compactMap { $0["id"] as? Int }
        #expect(Set(ok).isSuperset(of: [1, 2]) && !ok.contains(3) && !ok.contains(4), "ok: \(ok)")
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
        let partials = (FileManager.default.enumerator(atPath: out + "/photos")?.allObjects as? [String])?.filter { $0.hasSuffix(".part") }
        #expect(partials?.count == 2, "kept: \(partials ?? [])")
    }

    /// The second SIGINT is sent as soon as "Stopping:" appears, but the graceful stop of this small run
    /// takes only milliseconds and can finish first (then the run prints its summary, as it should). So the
    /// scenario runs up to three times and passes when one run had its second SIGINT land during the stop
    /// and quit at once. A broken second-SIGINT path fails all three.
    @Test(.disabled(if: Sanitizer.active,
                    "under a sanitizer: the second SIGINT must be handled while the stop is still writing; sanitized and loaded, the child finished writing its few photos first (it printed \"Gallery:\"), a race the test cannot win there"))
    func secondSigintQuitsAtOnce() async throws {
        var outcomes: [String] = []
        for _ in 0..<3 {
            let outcome = try await DedicatedTaskExecutor.offPool { try await Self.sigintTwice() }
            if outcome == nil { return }
            outcomes.append(outcome!)
        }
        Issue.record("no run quit at once on the second SIGINT: \(outcomes)")
    }

    /// nil when the run quit at once on the second SIGINT; otherwise what happened instead.
    static func sigintTwice() async throws -> String? {
        let api = try Self.trickleAPI()
        let dir = try TempDirectory()
        let out = dir.file("g")
        // The second SIGINT goes out as soon as the first one's message shows the stop has begun.
        let runner = try ProcessRunner(GalleryCLIKit.binary, Self.arguments(api, out)) { output, runner in
            if case .stderr = output, runner.stderrText.contains("Stopping:") { runner.send(SIGINT) }
        }
        try await GalleryCLIKit.waitFor(20) { Self.trickling(api) || runner.hasExited }
        let sentAt = Date()
        runner.send(SIGINT)
        let result = runner.wait(timeout: 20)
        let took = Date().timeIntervalSince(sentAt)
        // Whichever way the race went, the run ends interrupted and promptly.
        #expect(result.exitCode == 130, "stderr: \(result.stderrText)")
        #expect(took < 5, "took \(took) s")
        // Quit, not stopped: the summary line of a finished run never came.
        if result.stderrText.contains("Gallery:") { return "the graceful stop finished first (\(took) s)" }
        #expect(took < 2, "quitting took \(took) s")
        return nil
    }
}
