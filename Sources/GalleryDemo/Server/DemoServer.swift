import Foundation
import GalleryHTTPServer
import GallerySync

/// The demo catalogue HTTP server, running in the background of the current process on
/// 127.0.0.1.
///
/// ```swift
/// let server = try await DemoServer.start()
/// print(server.baseURL)   // http://127.0.0.1:41873
/// ...
/// await server.stop()
/// ```
public final class DemoServer: Sendable {
    /// `http://127.0.0.1:PORT`, no trailing slash.
    public let baseURL: String
    /// The bound port (the real one when 0 was asked for).
    public let port: Int
    /// The catalogue being served.
    public let catalogue: DemoCatalogue
    /// The derived-image cache behind `/images`.
    public let store: DemoImageStore
    private let server: HTTPServer

    private init(host: String, catalogue: DemoCatalogue, store: DemoImageStore, server: HTTPServer) {
        self.port = server.port
        self.baseURL = "http://\(host):\(server.port)"
        self.catalogue = catalogue
        self.store = store
        self.server = server
    }

    /// The one line a command prints when it starts the server: the base URL first (so scripts
    /// can cut it out), then what is served and where the cache is.
    public var notice: String {
        "\(baseURL) \(catalogue.isSynthetic ? "synthetic catalogue of \(catalogue.totalItems) photos" : "demo catalogue"): "
            + "\(catalogue.pageCount) pages x \(DemoCatalogue.defaultPageSize) photos at "
            + "\(baseURL)/photos?feature=popular&page=1&rpp=\(DemoCatalogue.defaultPageSize) (cache \(store.folder.path))"
    }

    /// Binds the socket and starts serving; returns once the server accepts connections.
    /// Throws ``DemoError/noSourcePhotos(directory:)`` or ``DemoError/serverStartFailed(host:port:reason:)``.
    public static func start(_ configuration: DemoServerConfiguration = .init()) async throws(DemoError) -> DemoServer {
        let sources: DemoSourcePhotos
        if let given = configuration.sources { sources = given } else { sources = try DemoSourcePhotos.bundled() }
        let catalogue = configuration.syntheticPhotos.map { DemoCatalogue(syntheticPhotos: $0, sourceCount: sources.files.count) }
            ?? DemoCatalogue(pageCount: configuration.pageCount, sourceCount: sources.files.count)
        let renderer = configuration.renderer ?? DemoImageRenderer(sources: sources)
        let store = DemoImageStore(
            folder: DemoCacheLocation.folder(root: configuration.cacheRoot, sources: sources),
            renderer: renderer, concurrentRenders: configuration.concurrentRenders)
        store.removeStaleTemporaryFiles()

        let baseURL = BaseURLBox()
        let routes = CatalogueRoutes(catalogue: catalogue, images: ImageResponder(catalogue: catalogue, store: store),
                                     baseURL: baseURL)
        let host = configuration.host
        var http = HTTPServer.Configuration(host: host, port: configuration.port, serverName: "fetch-gallery-demo")
        http.threadName = "demo-http"
        let server: HTTPServer
        do { server = try HTTPServer.start(http) { request in await routes.respond(to: request) } } catch {
            throw .serverStartFailed(host: host, port: configuration.port, reason: "\(error)")
        }
        baseURL.value = "http://\(host):\(server.port)"
        return DemoServer(host: host, catalogue: catalogue, store: store, server: server)
    }

    /// Stops listening, lets requests in progress finish (for at most `grace` seconds, then cuts
    /// them off) and waits until the server has shut down.
    public func stop(grace: Double = 5) async {
        await server.stop(grace: grace)
    }

    /// Waits until the server stops (only after ``stop()``).
    public func waitUntilStopped() async {
        await server.waitUntilStopped()
    }
}
