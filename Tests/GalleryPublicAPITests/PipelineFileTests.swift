import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// Local files through the pipeline: sizes, orientation, the cache and its file validator.
@Suite struct PipelineFileTests {
    @Test func thumbnailOfARotatedPhotoIsUprightAtTheRequestedEdge() async throws {
        let pipeline = APIKit.pipeline()
        let bitmap = try await pipeline.image(fileAt: Corpus.path(APIKit.rotatedPhoto), size: .longestEdge(256))
        #expect(bitmap.width == 256 && bitmap.height == 171)
        #expect(bitmap.format == .rgb8)
        #expect(bitmap.bytesPerRow >= bitmap.width * 3)
        #expect(bitmap.byteCount == bitmap.bytesPerRow * bitmap.height)
        // The upright version of the same scene at the same size is nearly the same picture.
        let upright = try await pipeline.image(fileAt: Corpus.path(APIKit.uprightPhoto), size: .longestEdge(256))
        #expect(meanAbsoluteDifference(bitmap, upright) < 16)
        #expect(pipeline.statistics.decodes == 2)
    }

    @Test func fullSizeAndFitBox() async throws {
        let pipeline = APIKit.pipeline()
        let path = try Corpus.path(APIKit.rotatedPhoto)
        let full = try await pipeline.image(fileAt: path)
        #expect(full.width == 1800 && full.height == 1200)
        let boxed = try await pipeline.image(fileAt: path, size: .fit(width: 300, height: 100))
        #expect(boxed.width == 150 && boxed.height == 100)
        // A box bigger than the photo never upscales.
        let big = try await pipeline.image(fileAt: path, size: .fit(width: 4000, height: 4000))
        #expect(big.width == 1800 && big.height == 1200)
        #expect(pipeline.statistics.decodes == 3)
    }

    @Test func secondRequestIsACacheHitWithoutDecoding() async throws {
        let log = EventLog()
        let pipeline = APIKit.pipeline(observers: [log])
        let path = try Corpus.path(APIKit.uprightPhoto)
        let first = try await pipeline.image(fileAt: path, size: .longestEdge(128))
        #expect(pipeline.statistics.decodes == 1)
        #expect(pipeline.cachedImage(for: ImageRequest(fileAt: path, size: .longestEdge(128))) == first)
        let second = try await pipeline.image(fileAt: path, size: .longestEdge(128))
        #expect(second == first)
        let stats = pipeline.statistics
        #expect(stats.decodes == 1 && stats.cacheHits == 1 && stats.started == 1)
        #expect(log.count("hit") == 1 && log.count("decoded") == 1)
        // Another size of the same file is another entry.
        _ = try await pipeline.image(fileAt: path, size: .longestEdge(64))
        #expect(pipeline.statistics.decodes == 2)
    }

    @Test func aChangedFileMissesTheCache() async throws {
        let dir = try TempDirectory()
        let pipeline = APIKit.pipeline()
        let path = dir.file("photo.jpg")
        try Data(Corpus.bytes(APIKit.uprightPhoto)).write(to: URL(fileURLWithPath: path))
        let before = try await pipeline.image(fileAt: path, size: .longestEdge(64))
        #expect(before.width == 64)
        // Same name, other content (and size): the validator changes, so the pixels are decoded again.
        try Data(Corpus.bytes(APIKit.rotatedPhoto)).write(to: URL(fileURLWithPath: path))
        let after = try await pipeline.image(fileAt: path, size: .longestEdge(64))
        #expect(after.width == 64 && after.height == 43)
        #expect(pipeline.statistics.decodes == 2)
        #expect(pipeline.statistics.cacheHits == 0)
    }

    @Test func pipelinesCanShareOneCache() async throws {
        let shared = ImageCache(costLimit: 16 << 20)
        let a = APIKit.pipeline { $0.cache = shared }
        let b = APIKit.pipeline { $0.cache = shared }
        let path = try Corpus.path(APIKit.uprightPhoto)
        _ = try await a.image(fileAt: path, size: .longestEdge(100))
        _ = try await b.image(fileAt: path, size: .longestEdge(100))
        #expect(a.statistics.decodes == 1 && b.statistics.decodes == 0 && b.statistics.cacheHits == 1)
        #expect(shared.statistics.count == 1)
    }

    /// Mean absolute difference over every channel of two bitmaps of the same size and format.
    private func meanAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        guard a.width == b.width, a.height == b.height, a.format == b.format else { return .infinity }
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for c in 0..<a.format.channels { total += abs(Int(a[x, y, c]) - Int(b[x, y, c])) }
            }
        }
        return Double(total) / Double(a.width * a.height * a.format.channels)
    }
}
