import Foundation
import GalleryTestSupport
import Testing

/// `run` and `download` with `--respect-opt-out`: the same site as `dataset`'s opt-out test (every signal,
/// header refusals sending a 32 MiB body at once that must not be read), the same decisions. A personal
/// gallery honours none by default, so without the flag the site's files are not even asked for.
@Suite struct GalleryOptOutTests {
    typealias Site = DatasetOptOutTests.Site

    @Test func runSkipsEveryOptedOutPhotoBeforeItsBodyAndRecordsItsSignal() async throws {
        let site = try Site()
        let out = site.work.file("gallery")
        let r = try await DownloadCLI.run(["run", "--urls", try site.list(), "--out", out, "--respect-opt-out",
                                           "--progress", "none"] + GalleryCommandTests.fast, timeout: 120)
        #expect(r.exitCode == 0, "\(r.stderrText)")
        #expect(r.stderrText.contains("(2 photos, 0 failed, 8 opted out, "), "\(r.stderrText)")
        let skipped = r.stderrText.split(separator: "\n").filter { $0.hasPrefix("skipped: photo ") && $0.contains("opted_out: ") }
        #expect(skipped.count == 8, "\(r.stderrText)")
        #expect(!r.stderrText.contains("error:"), "\(r.stderrText)")
        let photos = try GalleryCLIKit.manifestPhotos(out)
        #expect(photos.count == site.expected.count)
        for e in site.expected {
            let photo = photos.first { ($0["sourceURL"] as? String ?? $0["source_url"] as? String) == site.server.url(e.path) }
            let status = photo?["status"] as? String
            #expect(status == (e.status == "success" ? "ok" : "opted_out"), "\(e.path): \(photo ?? [:])")
            #expect((photo?["error"] as? String) == e.message, "\(e.path): \(photo ?? [:])")
            #expect((photo?["original"] as? String == nil) == (e.status != "success"), "\(e.path)")
        }
        for path in ["/private/1.jpg", "/signal/1.jpg", "/usage/1.jpg"] { #expect(site.server.requests(path: path).isEmpty, "\(path) was requested") }
        for path in site.refusedByHeaders {
            #expect(site.server.requests(path: path).count == 1, "\(path)")
            #expect(site.server.bodyBytesSent(path: path) < Site.unreadBound, "\(path): \(site.server.bodyBytesSent(path: path)) body bytes sent")
        }
        #expect(site.server.requests(path: "/robots.txt").count == 1)
        #expect(site.server.requests(path: "/.well-known/tdmrep.json").count == 1)
        // No opted-out photo leaves a file behind, finished or partial.
        let files = FileManager.default.enumerator(atPath: out + "/photos")?.compactMap { $0 as? String } ?? []
        #expect(files.filter { $0.hasSuffix(".jpg") || $0.contains(".part") }.count == 2, "\(files)")
        site.server.stop()
    }

    @Test func downloadSkipsOptedOutFilesAndSaysWhy() async throws {
        let site = try Site()
        let out = site.work.file("files")
        let r = try await DownloadCLI.run(["download", "--urls", try site.list(), "--out", out, "--respect-opt-out",
                                           "--progress", "none"], timeout: 120)
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let skipped = r.stderrText.split(separator: "\n").filter { $0.hasPrefix("skipped: ") && $0.contains(": opted_out: ") }
        #expect(skipped.count == 8, "\(r.stderrText)")
        for e in site.expected where e.message != nil {
            #expect(r.stderrText.contains("skipped: \(site.server.url(e.path)): \(e.message!)"), "\(e.path): \(r.stderrText)")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(files.count == 2, "\(files)")
        for path in site.refusedByHeaders { #expect(site.server.bodyBytesSent(path: path) < Site.unreadBound, "\(path): \(site.server.bodyBytesSent(path: path))") }
        site.server.stop()
    }

    /// Without the flag a gallery reads no origin file and downloads what an opt-out header marks.
    @Test func withoutTheFlagNothingIsAskedOrRefused() async throws {
        let server = try FaultServer()
        let work = try TempDirectory(prefix: "gallery-optout-off")
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        server.route("/robots.txt") { _, _ in .status(200, text: "User-agent: *\nDisallow: /\n") }
        server.route("/hdr/xrt.jpg") { _, _ in .status(200, headers: ["Content-Type": "image/jpeg", "X-Robots-Tag": "noai"], body: photo) }
        let list = try work.write(Array(server.url("/hdr/xrt.jpg").utf8), to: "list.txt")
        let out = work.file("gallery")
        let r = try await DownloadCLI.run(["run", "--urls", list, "--out", out, "--progress", "none"] + GalleryCommandTests.fast)
        #expect(r.exitCode == 0, "\(r.stderrText)")
        #expect(try GalleryCLIKit.manifestPhotos(out).map { $0["status"] as? String } == ["ok"])
        #expect(server.requests(path: "/robots.txt").isEmpty)
        server.stop()
    }
}
