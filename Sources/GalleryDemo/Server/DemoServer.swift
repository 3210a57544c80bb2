import Foundation
import Hummingbird
import ServiceLifecycle
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
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, host: String, catalogue: DemoCatalogue, store: DemoImageStore, group: ServiceGroup,
                 running: Task<Void, any Error>) {
        self.port = port
        self.baseURL = "http://\(host):\(port)"
        self.catalogue = catalogue
        self.store = store
        self.group = group
        self.running = running
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
        let router = Router()
        routes.register(on: router)

        let host = configuration.host
        let bound = StartSignal()
        var application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "fetch-gallery-demo"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                baseURL.value = "http://\(host):\(port)"
                bound.finish(.success(port))
            }
        )
        if !configuration.verboseServerLog { application.logger.logLevel = .warning }
        // Our own group, without signal handlers (the process may have its own), so stop() can
        // shut down gracefully: cancelling app.run() instead trips NIO's "writer deinited
        // without finish()" precondition for connections still open.
        let group = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
        let running = Task {
            do {
                try await group.run()
                bound.finish(.failure(.serverStartFailed(host: host, port: configuration.port, reason: "server stopped before binding")))
            } catch {
                bound.finish(.failure(.serverStartFailed(host: host, port: configuration.port, reason: String(describing: error))))
                throw error
            }
        }
        let port = try await bound.wait()
        return DemoServer(port: port, host: host, catalogue: catalogue, store: store, group: group, running: running)
    }

    /// Stops listening, lets requests in progress finish (for at most `grace` seconds, then cuts
    /// them off) and waits until the server has shut down.
    public func stop(grace: Double = 5) async {
        await group.triggerGracefulShutdown()
        let running = self.running
        let deadline = Task {
            try await Task.sleep(for: .seconds(grace))
            running.cancel()
        }
        _ = await running.result
        deadline.cancel()
    }

    /// Waits until the server stops (only after ``stop()``, or if it fails).
    public func waitUntilStopped() async {
        _ = await running.result
    }
}

/// A one-shot hand-over of the bind result from Hummingbird's callback to ``DemoServer/start(_:)``.
/// Whichever of "bound" or "failed" comes first wins; later calls are ignored.
private final class StartSignal: Sendable {
    private struct State {
        var result: Result<Int, DemoError>?
        var waiter: HandOffContinuation<Result<Int, DemoError>, Never>?
    }

    private let state = Locked(State())

    func finish(_ result: Result<Int, DemoError>) {
        let waiter = state.withLock { state -> HandOffContinuation<Result<Int, DemoError>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    func wait() async throws(DemoError) -> Int {
        let result = await withHandOffContinuation { (continuation: HandOffContinuation<Result<Int, DemoError>, Never>) in
            let ready = state.withLock { state -> Result<Int, DemoError>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try result.get()
    }
}
