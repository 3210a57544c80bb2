import Foundation
import GalleryKit
import Hummingbird
import ServiceLifecycle

/// `fetch-gallery serve`'s server: an ``ImageService`` behind Hummingbird, listening until SIGTERM or
/// SIGINT, then draining: no new connections, requests in flight answered, then exit.
///
/// ```swift
/// var configuration = ServeConfiguration()
/// configuration.root = "/srv/photos"
/// let service = try ImageService(configuration: configuration)
/// let router = Hummingbird.Router()
/// ServeRoutes(service: service).register(on: router)   // in any Hummingbird app
/// ```
public enum ServeServer {
    /// Serves until a signal; `onListening` receives the bound port once connections are accepted.
    public static func run(_ service: ImageService, onListening: @escaping @Sendable (Int) -> Void) async throws {
        let router = Hummingbird.Router()
        ServeRoutes(service: service).register(on: router)
        let configuration = service.configuration
        var application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "fetch-gallery-serve"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) })
        application.logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: application.logger))
        try await group.run()
        service.pipeline.shutdown()
    }
}
