import GalleryHTTPServer
import GalleryKit

/// `fetch-gallery serve`'s server: an ``ImageService`` behind GalleryHTTPServer until `stop` returns (the
/// command's SIGTERM or SIGINT), then draining: no new connections, requests in flight answered, then return.
///
/// ```swift
/// var configuration = ServeConfiguration()
/// configuration.root = "/srv/photos"
/// let service = try ImageService(configuration: configuration)
/// let routes = ServeRoutes(service: service)      // or call service.image(path:...) from any framework
/// let answer = await routes.respond(to: HTTPServerRequest(method: "GET", target: "/insecure/rs:fit:300/plain/a.jpg"))
/// ```
public enum ServeServer {
    /// Serves until `stop` returns; `onListening` receives the bound port once connections are accepted.
    /// Answers in progress then get `grace` seconds to finish.
    public static func run(_ service: ImageService, grace: Double = 10, until stop: @Sendable () async -> Void,
                           onListening: @Sendable (Int) -> Void) async throws(HTTPServerError) {
        let routes = ServeRoutes(service: service)
        let configuration = service.configuration
        var http = HTTPServer.Configuration(host: configuration.host, port: configuration.port, serverName: "fetch-gallery-serve")
        http.threadName = "serve-http"
        let server = try HTTPServer.start(http) { request in await routes.respond(to: request) }
        onListening(server.port)
        await stop()
        await server.stop(grace: grace)
        service.pipeline.shutdown()
    }
}
