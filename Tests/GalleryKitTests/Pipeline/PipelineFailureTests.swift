import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Photos that cannot be had end up in the manifest as failed, with a reason; the others are unharmed.
/// Listing pages that are not JSON are asked for again, and an unusable first page is a source error.
@Suite struct PipelineFailureTests {
    @Test func brokenPhotosFailWithAReasonAndTheOthersSucceed() async throws {
        let good = [FakePhoto(id: 1), FakePhoto(id: 5, corpusFile: "png-suite/basn6a08.png")]
        let missing = FakePhoto(id: 2), html = FakePhoto(id: 3), truncated = FakePhoto(id: 4)
        let corrupt = FakePhoto(id: 6, corpusFile: "jpeg-corrupt/missing-sos.jpg")
        let api = try FakeAPI([good + [missing, html, truncated, corrupt]])
        api.server.route(missing.imagePath) { _, _ in .status(404, text: "no such photo") }
        api.server.route(html.imagePath) { _, _ in .html() }
        let whole = try truncated.bytes
        let half = Array(whole.prefix(whole.count / 2))
        api.server.route(truncated.imagePath) { _, _ in .file(half, etag: "\"t\"", contentType: "image/jpeg") }
        let events = EventLog()
        let dir = try TempDirectory()

        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 1), observers: [events])

        #expect(summary.photosOK == 2 && summary.photosFailed == 4 && summary.photosQueued == 6)
        let manifest = try PipelineKit.manifest(dir.path)
        let byID = Dictionary(uniqueKeysWithValues: manifest.photos.map { ($0.id, $0) })
        for photo in good {
            #expect(byID[photo.id]?.status == .ok)
            #expect(try PipelineKit.read(dir.path + "/" + (byID[photo.id]?.original ?? "-")) == photo.bytes)
        }
        // Each failure names its stage and cause.
        let reasons: [(Int, [String])] = [(2, ["download", "404"]), (3, ["download"]), (4, ["imaging"]), (6, ["imaging"])]
        for (id, words) in reasons {
            let entry = try #require(byID[id])
            #expect(entry.status == .failed)
            let reason = entry.error ?? ""
            for word in words { #expect(reason.contains(word), "photo \(id): \(reason)") }
            #expect(entry.thumbnails.isEmpty)
        }
        // Not an image: the HTML never lands in photos/.
        let kept = PipelineKit.files(dir.path + "/photos")
        #expect(!kept.contains { $0.hasPrefix("3-") }, "\(kept)")
        let failedEvents = events.events.withLock { $0.filter { if case .photoFailed = $0 { true } else { false } } }
        #expect(failedEvents.count == 4)
        let index = try String(contentsOfFile: dir.path + "/index.html", encoding: .utf8)
        #expect(index.contains("4 failed"))
    }

    @Test func pageThatIsNotJSONIsAskedForAgain() async throws {
        let photo = FakePhoto(id: 1, corpusFile: "png-suite/basn2c08.png")
        let api = try FakeAPI([[photo]])
        let listing = "{\"total_pages\":1,\"photos\":[\(photo.json(base: api.base))]}"
        api.server.route("/photos") { _, attempt in
            attempt == 1 ? .html("<html>502 Bad Gateway</html>", contentType: "text/html")
                         : .status(200, headers: ["Content-Type": "application/json"], text: listing)
        }
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64]))
        #expect(api.requestedPages == [1, 1])
        #expect(summary.pagesFailed == 0 && summary.photosOK == 1 && summary.sourceError == nil)
    }

    /// A page whose body went over the page cap once (a gzip bomb, a proxy's dump) is a transfer failure the
    /// engine does not retry; the feed asks for the page again, so its photos are not lost.
    @Test func pageOverTheCapOnceIsAskedForAgain() async throws {
        let photo = FakePhoto(id: 1, corpusFile: "png-suite/basn2c08.png")
        let api = try FakeAPI([[photo]])
        let listing = "{\"total_pages\":1,\"photos\":[\(photo.json(base: api.base))]}"
        api.server.route("/photos") { _, attempt in
            attempt == 1 ? .status(200, headers: ["Content-Type": "application/json"], text: String(repeating: " ", count: 100_000))
                         : .status(200, headers: ["Content-Type": "application/json"], text: listing)
        }
        let dir = try TempDirectory()
        var job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
        job.maxPageBytes = 64 * 1024
        let summary = try await PipelineKit.run(job)
        #expect(api.requestedPages == [1, 1])
        #expect(summary.pagesFailed == 0 && summary.photosOK == 1 && summary.sourceError == nil)
    }

    /// A 4xx is the server's answer about that page: not asked again.
    @Test func pageAnswered404IsNotAskedForAgain() async throws {
        let api = try FakeAPI()
        api.server.route("/photos") { _, _ in .status(404, text: "no such page\n") }
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64]))
        #expect(api.requestedPages == [1])
        #expect(summary.pagesFailed == 1)
        #expect(summary.sourceError?.contains("404") == true, "\(summary.sourceError ?? "")")
    }

    @Test func unusableFirstPageIsASourceError() async throws {
        let api = try FakeAPI()
        api.server.route("/photos") { _, _ in .html("<html>maintenance</html>", contentType: "text/html") }
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 3, sizes: [64]))
        // pageAttempts (2 here) tries of page 1, then nothing more.
        #expect(api.requestedPages == [1, 1])
        #expect(summary.pagesFailed == 1 && summary.photosQueued == 0)
        let reason = try #require(summary.sourceError)
        #expect(reason.contains("source") && reason.contains("/photos"), "\(reason)")
        // The folder is still a (empty) gallery.
        #expect(try PipelineKit.manifest(dir.path).photos.isEmpty)
    }
}
