import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// Failures come back as `ImagePipelineError`: the source, the stage, and the layer's own error.
@Suite struct PipelineErrorTests {
    @Test func notFoundIsATransferErrorNamingTheURL() async throws {
        let server = try FaultServer()  // unrouted paths answer 404
        let pipeline = APIKit.pipeline()
        let url = server.url("/missing.jpg")
        let error = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(url: url, size: .longestEdge(64))
        }
        #expect(error?.stage == .transfer)
        #expect(error?.source == .url(url))
        #expect(error?.httpStatus == 404)
        guard case .httpStatus(404)? = error?.transferError?.reason else {
            Issue.record("reason: \(String(describing: error))")
            return
        }
        #expect(error?.description.contains(url) == true)
        #expect(error?.description.contains("HTTP 404") == true)
        #expect(pipeline.statistics.failures == 1 && pipeline.statistics.decodes == 0)
    }

    @Test func aCorruptImageIsADecodeErrorNamingTheURL() async throws {
        let server = try APIKit.server(serving: try Corpus.bytes(APIKit.corruptJPEG), at: "/corrupt.jpg")
        let pipeline = APIKit.pipeline()
        let url = server.url("/corrupt.jpg")
        let error = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(url: url, size: .longestEdge(64))
        }
        #expect(error?.stage == .decode)
        #expect(error?.source == .url(url))
        #expect(error?.decodeError?.name == url)
        #expect(error?.description.hasPrefix(url) == true)
        // Failures are not cached: the next request tries again (and fails again).
        await #expect(throws: ImagePipelineError.self) { _ = try await pipeline.image(url: url, size: .longestEdge(64)) }
        #expect(pipeline.statistics.decodes == 2)
    }

    @Test func anHTMLPageIsRefusedByTheTransferStage() async throws {
        let server = try FaultServer()
        server.route("/page.jpg") { _, _ in .html() }
        let pipeline = APIKit.pipeline()
        let error = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(url: server.url("/page.jpg"))
        }
        #expect(error?.stage == .transfer)
        guard case .notAnImage? = error?.transferError?.reason else {
            Issue.record("reason: \(String(describing: error))")
            return
        }
    }

    @Test func aMissingFileAndAnOversizedImageAreDecodeErrors() async throws {
        let pipeline = APIKit.pipeline { $0.maxPixels = 1_000_000 }
        let missing = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(fileAt: "/nonexistent/photo.jpg")
        }
        #expect(missing?.stage == .decode)
        guard case .io(let name, _)? = missing?.decodeError else {
            Issue.record("reason: \(String(describing: missing))")
            return
        }
        #expect(name == "/nonexistent/photo.jpg")
        // 1800x1200 is over the 1 MP guard: refused from the header, before decoding.
        let large = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(fileAt: Corpus.path(APIKit.uprightPhoto), size: .longestEdge(64))
        }
        guard case .tooLarge(_, 1800, 1200, _)? = large?.decodeError else {
            Issue.record("reason: \(String(describing: large))")
            return
        }
    }

    @Test func aSizeBelowOnePixelIsRefused() async throws {
        let pipeline = APIKit.pipeline()
        let error = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(fileAt: Corpus.path(APIKit.uprightPhoto), size: .fit(width: 0, height: 10))
        }
        #expect(error?.stage == .request)
        #expect(pipeline.statistics.started == 0)
    }

    @Test func aStoreThatCannotBeWrittenIsAStoreError() async throws {
        let server = try APIKit.server(serving: try Corpus.bytes(APIKit.uprightPhoto))
        let dir = try TempDirectory()
        let blocker = try dir.write([1, 2, 3], to: "not-a-folder")  // a file where the store folder should be
        let pipeline = APIKit.pipeline(store: blocker + "/store")
        let error = await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(url: server.url("/photo.jpg"), size: .longestEdge(64))
        }
        #expect(error?.stage == .store)
        guard case .store? = error?.reason else {
            Issue.record("reason: \(String(describing: error))")
            return
        }
    }
}
