import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// What the pipeline gained for services: a cover box (for crops), the source's description with the
/// bitmap, forgetting a URL's version, and running work on its threads.
@Suite struct PipelineCoverTests {
    @Test func coverScalesSoTheBoxIsCoveredNeverUp() async throws {
        let pipeline = APIKit.pipeline()
        let path = try Corpus.path(APIKit.rotatedPhoto)  // 1800x1200 upright (stored rotated)
        let tall = try await pipeline.image(fileAt: path, size: .cover(width: 300, height: 300))
        #expect(tall.width == 450 && tall.height == 300)
        let wide = try await pipeline.image(fileAt: path, size: .cover(width: 900, height: 100))
        #expect(wide.width == 900 && wide.height == 600)
        let big = try await pipeline.image(fileAt: path, size: .cover(width: 4000, height: 100))
        #expect(big.width == 1800 && big.height == 1200)
        // A cover and a fit of one box are different entries.
        let fit = try await pipeline.image(fileAt: path, size: .fit(width: 300, height: 300))
        #expect(fit.width == 300 && fit.height == 200)
        #expect(pipeline.statistics.decodes == 4)
    }

    @Test func imageAndSourceDescribeTheOriginal() async throws {
        let pipeline = APIKit.pipeline()
        let path = try Corpus.path(APIKit.rotatedPhoto)
        let (bitmap, info) = try await pipeline.imageAndSource(for: ImageRequest(fileAt: path, size: .longestEdge(64)))
        #expect(bitmap.width == 64)
        let source = try #require(info)
        #expect(source.format == .jpeg && source.width == 1800 && source.height == 1200)
        #expect(source.byteCount == (try Corpus.bytes(APIKit.rotatedPhoto)).count)
        guard case .file? = source.validator else { Issue.record("no file validator: \(String(describing: source.validator))"); return }
        #expect(try await pipeline.onWorkers { 6 * 7 } == 42)
    }

    @Test func forgettingAURLDownloadsItAgain() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try APIKit.server(serving: bytes)
        defer { server.stop() }
        let pipeline = APIKit.pipeline()
        let url = server.url("/photo.jpg")
        _ = try await pipeline.image(url: url, size: .longestEdge(32))
        _ = try await pipeline.image(url: url, size: .longestEdge(32))
        #expect(pipeline.statistics.downloads == 1)
        pipeline.forget(url: url)
        #expect(pipeline.sourceInfo(for: .url(url)) == nil)
        _ = try await pipeline.image(url: url, size: .longestEdge(32))
        #expect(pipeline.statistics.downloads == 2)
    }
}
