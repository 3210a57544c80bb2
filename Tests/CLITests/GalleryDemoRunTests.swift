import Foundation
import GalleryTestSupport
import Testing

/// The quick start from the help text: no `--api`, so the built-in demo catalogue is served on
/// 127.0.0.1 and one listing page (50 photos) becomes a gallery.
@Suite struct GalleryDemoRunTests {
    @Test(.timeLimit(.minutes(16)))
    func defaultRunOnTheDemoCatalogue() async throws {
        let dir = try TempDirectory()
        let out = dir.file("gallery")
        // The first run renders the demo images into the demo server's cache: allow minutes (a quarter of
        // an hour under ThreadSanitizer, where 3 minutes did not do). The wait is off the cooperative pool,
        // which it would otherwise take one of two threads of for that long.
        let result = try await DedicatedTaskExecutor.offPool {
            try ProcessRunner.run(GalleryCLIKit.binary, ["--pages", "1", "--out", out, "--progress", "none"],
                                  timeout: Sanitizer.active ? 900 : 180)
        }
        #expect(!result.timedOut)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("demo catalogue"))
        let photos = try GalleryCLIKit.manifestPhotos(out)
        #expect(photos.count == 50)
        #expect(photos.allSatisfy { $0["status"] as? String == "ok" })
        for photo in photos {
            let original = photo["original"] as? String ?? "-"
            #expect(FileManager.default.fileExists(atPath: out + "/" + original), "\(original)")
            let thumb = (photo["thumbnails"] as? [String: String])?["256"] ?? "-"
            #expect(FileManager.default.fileExists(atPath: out + "/" + thumb), "\(thumb)")
        }
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("50 photos"))
    }
}
