import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// `requestStop()` while images trickle in: the run ends promptly with a gallery for what is done,
/// partial originals stay on disk, and the next run resumes them instead of starting over.
@Suite struct PipelineInterruptTests {
    @Test func stoppedRunWritesWhatIsDoneAndTheNextRunResumes() async throws {
        let quick = [FakePhoto(id: 1, corpusFile: "png-suite/basn2c08.png"), FakePhoto(id: 2)]
        let slow = [FakePhoto(id: 3, corpusFile: "exif-orientation/Landscape_1.jpg"),
                    FakePhoto(id: 4, corpusFile: "exif-orientation/Portrait_1.jpg")]
        let api = try FakeAPI([quick + slow])
        for photo in slow {
            let bytes = try photo.bytes
            // About 9 s per photo, so the stop comes long before either is done. The trickle sends
            // 1/10 s slices and counts each before it is sent; the slice in flight at the stop is
            // waste (2 x 4 kB of 593 kB, within the 2% allowance).
            api.server.route(photo.imagePath) { _, _ in
                .file(bytes, etag: "\"\(photo.id)\"", contentType: "image/jpeg").trickle(bytesPerSecond: 40_000)
            }
        }
        let dir = try TempDirectory()
        let job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [128])
        let engine = PipelineKit.engine()
        let events = EventLog()
        let run = GalleryRun(job: job, engine: engine, observers: [events])
        let running = Task { try await run.run() }

        // Stop once both slow photos are under way and the quick ones are done.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let flowing = slow.allSatisfy { api.server.bodyBytesSent(path: $0.imagePath) >= 40_000 }
            if flowing && Set(events.finished).isSuperset(of: [1, 2]) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Let the slice just counted reach the partial file before stopping.
        try await Task.sleep(for: .milliseconds(30))
        let stoppedAt = Date()
        run.requestStop()
        let first = try await running.value
        let stopTime = Date().timeIntervalSince(stoppedAt)
        engine.shutdown()

        #expect(stopTime < 3, "stopping took \(stopTime) s")
        #expect(first.interrupted && first.photosOK == 2 && first.photosFailed == 0)
        let manifest = try PipelineKit.manifest(dir.path)
        #expect(manifest.photos.filter { $0.status == .ok }.map(\.id).sorted() == [1, 2])
        #expect(FileManager.default.fileExists(atPath: dir.path + "/index.html"))
        // The slow photos are partial originals, kept for the next run.
        let partials = PipelineKit.files(dir.path + "/photos").filter { $0.hasSuffix(".part") }
        #expect(partials.count == 2, "kept: \(PipelineKit.files(dir.path + "/photos"))")

        for photo in slow { try api.serve(photo) }  // full speed now
        let second = try await PipelineKit.run(job)
        #expect(second.photosOK == 4 && second.photosFailed == 0 && !second.interrupted)
        let total = try slow.map { try $0.bytes.count }.reduce(0, +)
        let sent = slow.map { api.server.bodyBytesSent(path: $0.imagePath) }.reduce(0, +)
        #expect(Double(sent) <= Double(total) * 1.02, "server sent \(sent) bytes for \(total)")
        for photo in slow {
            let ranges = api.server.requests(path: photo.imagePath).compactMap { $0.headers["Range"] }
            #expect(ranges.count == 1, "photo \(photo.id) was not resumed")
            let entry = try #require(try PipelineKit.manifest(dir.path).photos.first { $0.id == photo.id })
            #expect(try PipelineKit.read(dir.path + "/" + (entry.original ?? "-")) == photo.bytes)
        }
        #expect(PipelineKit.files(dir.path + "/photos").allSatisfy { !$0.hasSuffix(".part") && !$0.hasSuffix(".meta") })
    }

    /// A stop must not wait for a listing page the server is slow to send.
    @Test func stopDoesNotWaitForASlowPage() async throws {
        let first = FakePhoto(id: 1, corpusFile: "png-suite/basn2c08.png")
        let api = try FakeAPI([[first], [FakePhoto(id: 2)]])
        let listing = "{\"total_pages\":2,\"photos\":[\(first.json(base: api.base))]}"
        api.server.route("/photos") { request, _ in
            FakeAPI.pageNumber(request.query) == 1
                ? .status(200, headers: ["Content-Type": "application/json"], text: listing)
                : .status(200, text: "{}").stallBeforeHeaders(seconds: 30)
        }
        let dir = try TempDirectory()
        let engine = PipelineKit.engine()
        let events = EventLog()
        let run = GalleryRun(job: PipelineKit.job(api, folder: dir.path, pages: 2, sizes: [64]), engine: engine,
                             observers: [events])
        let running = Task { try await run.run() }
        let deadline = Date().addingTimeInterval(15)
        while (events.finished.isEmpty || api.requestedPages.count < 2) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let stoppedAt = Date()
        run.requestStop()
        let summary = try await running.value
        let took = Date().timeIntervalSince(stoppedAt)
        engine.shutdown()
        #expect(took < 3, "stopping waited \(took) s for page 2")
        #expect(summary.interrupted && summary.photosOK == 1)
        // Stopping is not a failure of the source.
        #expect(summary.pagesFailed == 0)
        #expect(try PipelineKit.manifest(dir.path).photos.map(\.id) == [1])
    }
}
