import Foundation
import GalleryKit
import GalleryTestSupport
import Synchronization
import Testing

/// Concurrent requests for one source and size share one download and one decode; a caller
/// that gives up leaves the others their result.
@Suite struct PipelineCoalescingTests {
    @Test func eightConcurrentRequestsDownloadAndDecodeOnce() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try FaultServer()
        // Slow enough (about 2 s) that all eight requests arrive while the first is in flight.
        server.route("/slow.jpg") { _, _ in
            .file(bytes, etag: "\"v1\"", contentType: "image/jpeg").trickle(bytesPerSecond: 200_000)
        }
        let pipeline = APIKit.pipeline()
        let url = server.url("/slow.jpg")
        let bitmaps = try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<8 { group.addTask { try await pipeline.image(url: url, size: .longestEdge(256)) } }
            return try await group.reduce(into: [Bitmap]()) { $0.append($1) }
        }
        #expect(bitmaps.count == 8)
        #expect(bitmaps.allSatisfy { $0 == bitmaps[0] && $0.width == 256 })
        let stats = pipeline.statistics
        #expect(stats.downloads == 1, "downloads: \(stats.downloads)")
        #expect(stats.decodes == 1, "decodes: \(stats.decodes)")
        // A request scheduled very late on a loaded machine may find the result cached instead.
        #expect(stats.started == 1 && stats.coalesced + stats.cacheHits == 7 && stats.coalesced >= 1)
        #expect(server.requests(path: "/slow.jpg").count == 1)
    }

    @Test func oneCallerCancellingLeavesTheOthersTheirResult() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try FaultServer()
        server.route("/slow.jpg") { _, _ in
            .file(bytes, etag: "\"v1\"", contentType: "image/jpeg").trickle(bytesPerSecond: 150_000)
        }
        let pipeline = APIKit.pipeline()
        let url = server.url("/slow.jpg")
        let quitter = Task { try await pipeline.image(url: url, size: .longestEdge(100)) }
        let stayers = (0..<3).map { _ in Task { try await pipeline.image(url: url, size: .longestEdge(100)) } }
        #expect(await APIKit.eventually { pipeline.statistics.coalesced == 3 })
        #expect(await APIKit.eventually { server.bodyBytesSent(path: "/slow.jpg") > 50_000 })
        quitter.cancel()
        do {
            _ = try await quitter.value
            Issue.record("the cancelled request returned an image")
        } catch let error as ImagePipelineError {
            #expect(error.isCancellation, "\(error)")
        }
        // The quitter left while the download was still running; the others still get the image.
        #expect(server.bodyBytesSent(path: "/slow.jpg") < bytes.count)
        for stayer in stayers {
            let bitmap = try await stayer.value
            #expect(bitmap.width == 100)
        }
        #expect(pipeline.statistics.downloads == 1 && pipeline.statistics.decodes == 1)
        #expect(server.requests(path: "/slow.jpg").count == 1)
    }

    @Test func concurrentRequestsForDifferentSizesShareTheDownload() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try FaultServer()
        server.route("/slow.jpg") { _, _ in
            .file(bytes, etag: "\"v1\"", contentType: "image/jpeg").trickle(bytesPerSecond: 400_000)
        }
        let pipeline = APIKit.pipeline()
        let url = server.url("/slow.jpg")
        async let a = pipeline.image(url: url, size: .longestEdge(64))
        async let b = pipeline.image(url: url, size: .longestEdge(128))
        async let c = pipeline.image(url: url, size: .full)
        let (small, medium, full) = try await (a, b, c)
        #expect(small.width == 64 && medium.width == 128 && full.width == 1800)
        // One original for the three sizes, decoded once per size.
        #expect(pipeline.statistics.downloads == 1 && pipeline.statistics.decodes == 3)
        #expect(server.requests(path: "/slow.jpg").count == 1)
    }
}
