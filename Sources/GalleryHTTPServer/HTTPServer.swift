import Dispatch
import GallerySync
import GallerySystem
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server for the demo catalogue and `fetch-gallery serve`: a listening socket, a thread per
/// connection (kept alive between requests), and one async handler for every request. It stops gracefully:
/// no new connections, idle ones closed, answers in progress finished within a grace period.
///
/// ```swift
/// let server = try HTTPServer.start(.init(host: "127.0.0.1", port: 0, serverName: "demo")) { request in
///     .text(200, "hello \(request.path)\n")
/// }
/// print(server.port)
/// await server.stop(grace: 5)
/// ```
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPServerRequest) async -> HTTPServerResponse

    public struct Configuration: Sendable {
        public var host: String
        /// 0 lets the system pick a free port (``HTTPServer/port`` tells which).
        public var port: Int
        /// The `Server` field of every answer.
        public var serverName: String
        /// A connection waiting this long for a request (or the rest of one) is closed.
        public var idleTimeout: Double = 60
        /// Connections open at once; one more is answered 503 and closed.
        public var maxConnections = 1024
        /// The longest request head accepted (431 beyond).
        public var maxHeadBytes = 64 << 10
        /// The name of the connection threads (at most 15 bytes), as `top -H` shows them.
        public var threadName = "http-conn"

        public init(host: String, port: Int, serverName: String) {
            self.host = host
            self.port = port
            self.serverName = serverName
        }

        var idleTimeoutMilliseconds: Int32 { Int32(clamping: Int(idleTimeout * 1000)) }
    }

    private struct State {
        var stopping = false
        var connections: Set<Int32> = []
        /// The last second's `Date` text and the second it is for.
        var date: (second: Int, text: String) = (-1, "")
        var wakeClosed = false
    }

    public let configuration: Configuration
    /// The port listened on.
    public let port: Int
    private let handler: Handler
    private let listenFD: Int32
    /// Written once by ``stop(grace:)``: every wait of the server polls it, so one byte wakes them all.
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = Locked(State())
    /// Entered by the accept thread and each connection thread.
    private let threads = DispatchGroup()

    private init(configuration: Configuration, port: Int, listenFD: Int32, wake: (read: Int32, write: Int32), handler: @escaping Handler) {
        self.configuration = configuration
        self.port = port
        self.listenFD = listenFD
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
        self.handler = handler
    }

    /// Binds and starts accepting; returns once connections are accepted.
    public static func start(_ configuration: Configuration, handler: @escaping Handler) throws(HTTPServerError) -> HTTPServer {
        let listening: (fd: Int32, port: Int)
        do { listening = try Syscall.listenTCP(host: configuration.host, port: configuration.port) } catch {
            throw .cannotListen(host: configuration.host, port: configuration.port, error)
        }
        let wake: (read: Int32, write: Int32)
        do { wake = try Syscall.pipe() } catch {
            Syscall.closeQuietly(listening.fd)
            throw .cannotListen(host: configuration.host, port: configuration.port, error)
        }
        let server = HTTPServer(configuration: configuration, port: listening.port, listenFD: listening.fd, wake: wake, handler: handler)
        server.threads.enter()
        NamedThread.start("http-accept") { [server] in server.acceptLoop() }
        return server
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    private func acceptLoop() {
        defer {
            Syscall.closeQuietly(listenFD)
            threads.leave()
        }
        let place = "\(configuration.host):\(port)"
        while Syscall.waitReadable(listenFD, orWake: wakeRead, milliseconds: -1) == .readable {
            guard let fd = try? Syscall.accept(listenFD, place: place) else {
                // ECONNABORTED, or a moment of EMFILE: back off briefly rather than spin.
                if Syscall.waitReadable(wakeRead, orWake: wakeRead, milliseconds: 10) != .timedOut { return }
                continue
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopping, state.connections.count < configuration.maxConnections else { return false }
                state.connections.insert(fd)
                return true
            }
            guard admitted else {
                let busy = HTTPServerResponse.text(503, "too many connections\n").head(serverName: configuration.serverName,
                                                                                      date: dateText(), closing: true)
                try? Syscall.sendAll(fd, busy, place: place)
                Syscall.closeQuietly(fd)
                continue
            }
            threads.enter()
            NamedThread.start(configuration.threadName) { [self] in
                var connection = HTTPConnection(server: self, fd: fd)
                connection.run()
                // Closed under the lock, so stop() never shuts down a descriptor number already reused.
                state.withLock { state in
                    state.connections.remove(fd)
                    Syscall.closeQuietly(fd)
                }
                threads.leave()
            }
        }
    }

    /// The handler's answer to `request`, waited for on the connection's thread.
    func answer(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<HTTPServerResponse?>(nil)
        Task { [handler] in
            let response = await handler(request)
            result.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 } ?? .text(500, "no answer\n")
    }

    /// `Date` text for now, made once a second.
    func dateText() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = Int(now.tv_sec)
        return state.withLock { state in
            if state.date.second != second { state.date = (second, HTTPDate.format(epochSeconds: second)) }
            return state.date.text
        }
    }

    /// Stops accepting, closes idle connections, lets answers in progress finish for at most `grace` seconds
    /// (then cuts their connections), and returns once every thread of the server has ended.
    public func stop(grace: Double = 5) async {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first { Syscall.signalPipe(wakeWrite) }
        if await waitForThreads(seconds: grace) { return closeWake() }
        state.withLock { state in for fd in state.connections { Syscall.shutdownSocket(fd) } }
        if await waitForThreads(seconds: 5) { closeWake() }
        // Still running after that: the pipe is left open on purpose, so a thread still polling it never
        // sees a reused descriptor number.
    }

    /// Returns once the server has stopped (after ``stop(grace:)``).
    public func waitUntilStopped() async {
        _ = await waitForThreads(seconds: nil)
    }

    private func waitForThreads(seconds: Double?) async -> Bool {
        await withHandOffContinuation { (continuation: HandOffContinuation<Bool, Never>) in
            DispatchQueue.global().async { [threads] in
                let deadline: DispatchTime = seconds.map { .now() + $0 } ?? .distantFuture
                continuation.resume(returning: threads.wait(timeout: deadline) == .success)
            }
        }
    }

    private func closeWake() {
        let first = state.withLock { state -> Bool in
            defer { state.wakeClosed = true }
            return !state.wakeClosed
        }
        guard first else { return }
        Syscall.closeQuietly(wakeRead)
        Syscall.closeQuietly(wakeWrite)
    }
}
