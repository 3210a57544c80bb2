import Foundation
import GalleryTestSupport
import GallerySync
@testable import GalleryDemo

/// The real renderer, counting how often each image is rendered (to prove single flight and
/// on-disk reuse). Not a mock: every call still decodes, scales and encodes.
final class CountingRenderer: DemoImageRendering {
    let inner: DemoImageRenderer
    private let counts = Locked<[String: Int]>([:])

    init(sources: DemoSourcePhotos) {
        inner = DemoImageRenderer(sources: sources)
    }

    func render(_ photo: DemoPhoto, size: DemoImageSize) throws(DemoError) -> [UInt8] {
        counts.withLock { $0["\(photo.id)/\(size.rawValue)", default: 0] += 1 }
        return try inner.render(photo, size: size)
    }

    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    func count(_ photo: DemoPhoto, _ size: DemoImageSize) -> Int { counts.withLock { $0["\(photo.id)/\(size.rawValue)", default: 0] } }
}

/// A temporary folder with corpus source photos and an empty cache root.
struct DemoFixture {
    let folder: TempDirectory
    let sources: DemoSourcePhotos
    var cacheRoot: URL { folder.url.appendingPathComponent("cache") }

    init() throws {
        folder = try TempDirectory(prefix: "demo-test")
        sources = try DemoTestSources.make(in: folder.url)
    }

    func configuration(pageCount: Int = 5, renderer: (any DemoImageRendering)? = nil) -> DemoServerConfiguration {
        var configuration = DemoServerConfiguration()
        configuration.pageCount = pageCount
        configuration.sources = sources
        configuration.cacheRoot = cacheRoot
        configuration.renderer = renderer
        return configuration
    }

    /// Runs `body` against a fresh server, always stopping it afterwards.
    func withServer<T>(pageCount: Int = 5, renderer: (any DemoImageRendering)? = nil,
                       _ body: (DemoServer) async throws -> T) async throws -> T {
        let server = try await DemoServer.start(configuration(pageCount: pageCount, renderer: renderer))
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
