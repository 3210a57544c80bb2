import Foundation

/// An in-process HTTP/1.1 server on 127.0.0.1 that misbehaves on request, for testing a
/// download engine against real sockets.
///
/// ```swift
/// let server = try FaultServer()
/// server.route("/a.jpg") { request, attempt in
///     .file(bytes, etag: "\"v1\"", contentType: "image/jpeg")
/// }
/// server.route("/flaky") { _, attempt in
///     attempt < 3 ? .status(503, headers: ["Retry-After": "1"]) : .file(bytes)
/// }
/// // ... point the client at server.url("/a.jpg") ...
/// #expect(server.bodyBytesSent(path: "/a.jpg") == bytes.count)
/// ```
///
/// POSIX sockets, one thread per connection (so a stalled response never blocks another),
/// keep-alive unless the client sends `Connection: close` or speaks HTTP/1.0. Unrouted paths
/// answer 404. `stop()` (also run by `deinit`) closes every socket and waits for the threads.
public final class FaultServer: Sendable {
    /// Answers one request. `attempt` is the 1-based count of requests seen on that path,
    /// this one included.
    public typealias Handler = @Sendable (_ request: Request, _ attempt: Int) -> Response

    private let core: ServerCore

    /// Starts listening on 127.0.0.1 on a free port.
    public init() throws(TestSupportError) {
        core = try ServerCore()
    }

    deinit { core.stop() }

    /// The port the server listens on.
    public var port: Int { Int(core.port) }

    /// `http://127.0.0.1:PORT`, no trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(core.port)" }

    /// `baseURL` + `path` (which should start with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    /// `path` on a loopback port nobody listens on, so a connection is refused: port 1 (tcpmux), never served
    /// here. Not the port of a server just stopped: tests run in parallel, and another test's server may take it
    /// in between (seen: a 404 instead of a refusal, and a download from another test's server).
    public static func refusedURL(_ path: String) -> String { "http://127.0.0.1:1" + path }

    /// `url(path)` as a Foundation `URL`.
    public func urlValue(_ path: String) -> URL { URL(string: url(path))! }

    /// Routes requests whose path (query excluded) equals `path`. A later call replaces it.
    ///
    /// The handler runs on the connection's thread. Capture values (bytes, `server.url(...)`
    /// strings), not the server itself: a handler holding the server is a retain cycle, and the
    /// server would then only stop on an explicit `stop()`.
    public func route(_ path: String, _ handler: @escaping Handler) {
        core.state.withLock { $0.routes[path] = handler }
    }

    /// Answers every path that has no route of its own (instead of the default 404), e.g. to
    /// serve a whole gallery by looking `request.path` up in a dictionary.
    public func routeUnmatched(_ handler: @escaping Handler) {
        core.state.withLock { $0.fallback = handler }
    }

    /// Every request received on `path`, in arrival order.
    public func requests(path: String) -> [Request] {
        core.state.withLock { $0.log.filter { $0.path == path } }
    }

    /// Every request received, in arrival order.
    public var allRequests: [Request] { core.state.withLock { $0.log } }

    /// Body bytes written to sockets for `path` (after encoding, excluding headers and chunk
    /// framing), to prove that a resume fetched only what was missing. Exact once a response
    /// completed or was cut by the server; when the client hangs up mid-body it includes what
    /// the kernel had accepted for the vanished client.
    public func bodyBytesSent(path: String) -> Int {
        core.state.withLock { $0.bodyBytes[path] ?? 0 }
    }

    /// Body bytes written for all paths.
    public var totalBodyBytesSent: Int { core.state.withLock { $0.bodyBytes.values.reduce(0, +) } }

    /// How many TCP connections were accepted so far (keep-alive reuse keeps this low).
    public var connectionCount: Int { core.state.withLock { $0.connectionCount } }

    /// Connections open right now: a client that hung up is gone from here once the server's
    /// next read or write on it fails (at once for a trickling or streaming response).
    public var openConnectionCount: Int { core.state.withLock { $0.openConnections.count } }

    /// Stops listening, closes every connection (waking stalled ones) and waits up to 5 s for the
    /// server threads to end. Safe to call more than once.
    public func stop() { core.stop() }
}
