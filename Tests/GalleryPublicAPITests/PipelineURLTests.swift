import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// URLs through the pipeline against real servers on 127.0.0.1: one download for repeated
/// requests, per-request progress, and the on-disk originals store.
@Suite struct PipelineURLTests {
    @Test func repeatedRequestsDownloadOnce() async throws {
        let bytes = try Corpus.bytes(APIKit.rotatedPhoto)
        let server = try APIKit.server(serving: bytes)
        let log = EventLog()
        let pipeline = APIKit.pipeline(observers: [log])
        let url = server.url("/photo.jpg")
        let progress = ProgressLog()
        let first = try await pipeline.image(url: url, size: .longestEdge(200)) { progress.record($0) }
        let second = try await pipeline.image(url: url, size: .longestEdge(200))
        #expect(first.width == 200 && first.height == 133)
        #expect(second == first)
        let stats = pipeline.statistics
        #expect(stats.downloads == 1 && stats.decodes == 1 && stats.cacheHits == 1)
        #expect(stats.bytesDownloaded == Int64(bytes.count))
        #expect(server.requests(path: "/photo.jpg").count == 1)
        // The same transfer events the command-line progress bar gets, plus the pipeline's own.
        #expect(log.count("transfer-start") == 1 && log.count("downloaded") == 1 && log.count("hit") == 1)
        // Progress: bytes arriving up to the whole file, then the decode.
        let values = progress.all
        #expect(values.contains { $0.phase == .downloading })
        #expect(values.last == ImageProgress(phase: .decoding, receivedBytes: Int64(bytes.count),
                                             expectedBytes: Int64(bytes.count)))
        #expect(values.filter { $0.phase == .downloading }.map(\.receivedBytes).max() == Int64(bytes.count))
    }

    @Test func eachSizeIsItsOwnCacheEntry() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try APIKit.server(serving: bytes)
        let pipeline = APIKit.pipeline()
        let url = server.url("/photo.jpg")
        let small = try await pipeline.image(url: url, size: .longestEdge(64))
        let box = try await pipeline.image(url: url, size: .fit(width: 90, height: 90))
        #expect(small.width == 64 && small.height == 43)
        #expect(box.width == 90 && box.height == 60)
        // No store: each size downloads its original (two keys, two decodes); both are cached now.
        #expect(pipeline.statistics.downloads == 2 && pipeline.statistics.decodes == 2)
        #expect(pipeline.cachedImage(for: ImageRequest(url: url, size: .longestEdge(64))) == small)
    }

    @Test func nginxServedPhotoGoesThroughTheStore() async throws {
        let root = try TempDirectory()
        _ = try root.write(try Corpus.bytes(APIKit.uprightPhoto), to: "a.jpg")
        let nginx = try NginxServer(root: root.path)
        let storeDir = try TempDirectory()
        let url = nginx.url("/a.jpg")

        let first = APIKit.pipeline(store: storeDir.path)
        let bitmap = try await first.image(url: url, size: .longestEdge(300))
        #expect(bitmap.width == 300 && bitmap.height == 200)
        #expect(first.statistics.downloads == 1 && first.statistics.storeWrites == 1)
        #expect(nginx.waitForRequests(path: "/a.jpg", count: 1).count == 1)
        // The store holds the original byte for byte under a hashed name, and nothing half-written.
        let stored = try FileManager.default.contentsOfDirectory(atPath: storeDir.path).sorted()
        #expect(stored.count == 2, "\(stored)")
        #expect(stored.allSatisfy { !$0.hasPrefix(".") && !$0.contains("a.jpg") })
        let original = stored.first { !$0.hasSuffix(".validator") }!
        #expect(try storeDir.read(original) == Corpus.bytes(APIKit.uprightPhoto))

        // A new pipeline on the same folder decodes from disk: no request reaches nginx.
        let second = APIKit.pipeline(store: storeDir.path)
        let again = try await second.image(url: url, size: .longestEdge(300))
        #expect(again == bitmap)
        #expect(second.statistics.downloads == 0 && second.statistics.storeReads == 1)
        #expect(second.statistics.decodes == 1)
        // nginx logs a request once its response is sent: a marker asked for after the second pipeline
        // is logged after anything that pipeline asked for.
        let marker = try ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", nginx.url("/marker")], timeout: 30)
        #expect(marker.exitCode == 0 && nginx.waitForRequests(path: "/marker", count: 1).count == 1)
        #expect(nginx.requests(path: "/a.jpg").count == 1)
        nginx.stop()
    }

    @Test func sharedInstanceWorks() async throws {
        let server = try APIKit.server(serving: try Corpus.bytes(APIKit.uprightPhoto), at: "/shared.jpg")
        let url = server.url("/shared.jpg")
        let before = ImagePipeline.shared.statistics.downloads
        let bitmap = try await ImagePipeline.shared.image(url: url, size: .longestEdge(32))
        #expect(bitmap.width == 32)
        #expect(ImagePipeline.shared.statistics.downloads == before + 1)
        #expect(ImagePipeline.shared.cache === ImageCache.shared)
        #expect(ImagePipeline.shared.cachedImage(for: ImageRequest(url: url, size: .longestEdge(32))) == bitmap)
    }
}
