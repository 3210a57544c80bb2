import Foundation
import GalleryKit
import GalleryTestSupport
import GallerySync
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
        var configuration = ImagePipeline.Configuration()
        configuration.cache = .shared  // as programs wrote it before the seam took `any ImageCaching`
        #expect(configuration.cache === ImageCache.shared)
        #expect(ImagePipeline.shared.cachedImage(for: ImageRequest(url: url, size: .longestEdge(32))) == bitmap)
    }

    /// A cache of the caller's own policy takes the pipeline's place: one that keeps nothing is asked and told
    /// every bitmap, and the pipeline decodes each time (its original is kept, so it downloads once).
    @Test func aCacheOfTheCallersOwnIsTheOneAsked() async throws {
        let server = try APIKit.server(serving: try Corpus.bytes(APIKit.uprightPhoto), at: "/own-cache.jpg")
        let url = server.url("/own-cache.jpg")
        let store = try TempDirectory(prefix: "own-cache")
        let forgetful = ForgetfulCache()
        let pipeline = APIKit.pipeline(store: store.path) { $0.cache = forgetful }
        #expect(pipeline.cache === forgetful)
        _ = try await pipeline.image(url: url, size: .longestEdge(48))
        _ = try await pipeline.image(url: url, size: .longestEdge(48))
        // Asked once: the first request has no validator to look up with yet (the URL was never downloaded).
        let (asked, told) = (forgetful.asked.withLock { $0 }, forgetful.told.withLock { $0 })
        #expect(asked == 1 && told == 2, "asked \(asked), told \(told)")
        #expect(pipeline.statistics.decodes == 2 && pipeline.statistics.cacheHits == 0)
    }
}

/// An ``ImageCaching`` that remembers nothing and counts what it is asked and told.
final class ForgetfulCache: ImageCaching {
    let asked = Locked(0)
    let told = Locked(0)
    subscript(key: ImageCacheKey) -> Bitmap? {
        get { asked.withLock { $0 += 1 }; return nil }
        set { if newValue != nil { told.withLock { $0 += 1 } } }
    }
    func removeAll() {}
}
