import Dispatch
import Foundation
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// The shared state of one fault server: listening socket, routes, logs and open connections.
///
/// Threads capture the core, never the public `FaultServer`, so dropping the last reference to
/// the server runs its `deinit`, which stops the core.
final class ServerCore: Sendable {
    struct State {
        var stopped = false
        var routes: [String: FaultServer.Handler] = [:]
        var fallback: FaultServer.Handler?
        var attempts: [String: Int] = [:]
        var log: [FaultServer.Request] = []
        var bodyBytes: [String: Int] = [:]
        var openConnections: Set<Int32> = []
        var connectionCount = 0
    }

    let state = Locked(State())
    let listenFD: Int32
    let port: UInt16
    /// A pipe written once by `stop()`; every wait in the server polls its read end, so one
    /// byte wakes the accept loop and every stalled or trickling connection together.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Entered for the accept thread and each connection thread; `stop()` waits on it.
    private let threads = DispatchGroup()

    init() throws(TestSupportError) {
        let (fd, port) = try Socket.listenOnLoopback()
        var pipeFDs: [Int32] = [0, 0]
        if GNUFunctions.pipe2(&pipeFDs, O_CLOEXEC) != 0 {
            let code = errno
            close(fd)
            throw .system(operation: "pipe2", errno: code)
        }
        self.listenFD = fd
        self.port = port
        self.wakeRead = pipeFDs[0]
        self.wakeWrite = pipeFDs[1]
        threads.enter()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "FaultServer.accept:\(port)"
        thread.start()
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Sleeps up to `seconds`; false if `stop()` cut the wait short (the caller should bail out).
    func pause(_ seconds: Double) -> Bool {
        guard seconds > 0 else { return !isStopped }
        return !Socket.waitReadable(wakeRead, timeout: seconds)
    }

    private func acceptLoop() {
        defer {
            close(listenFD)
            threads.leave()
        }
        var descriptors = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 || isStopped { return }
            guard descriptors[0].revents & Int16(POLLIN) != 0 else { continue }
            guard let fd = try? Socket.accept(listenFD) else {
                // ECONNABORTED or a momentary EMFILE: back off briefly rather than spin.
                if !pause(0.01) { return }
                continue
            }
            startConnection(fd)
        }
    }

    private func startConnection(_ fd: Int32) {
        let id: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.openConnections.insert(fd)
            state.connectionCount += 1
            return state.connectionCount
        }
        guard let id else {
            close(fd)
            return
        }
        threads.enter()
        // One thread per connection: a stalled or trickling response never holds up another.
        let thread = Thread { [self] in
            Connection(core: self, fd: fd, id: id).run()
            finishConnection(fd)
            threads.leave()
        }
        thread.name = "FaultServer.connection:\(port)#\(id)"
        thread.start()
    }

    /// Closes under the lock, so `stop()` never shuts down a descriptor number that was
    /// already reused by another connection.
    private func finishConnection(_ fd: Int32) {
        state.withLock { state in
            state.openConnections.remove(fd)
            close(fd)
        }
    }

    /// Stops accepting, wakes every waiting thread, shuts every open connection down and waits
    /// (up to 5 s) for all threads to end. Idempotent.
    func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            for fd in state.openConnections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if threads.wait(timeout: .now() + 5) == .success {
            close(wakeRead)
            close(wakeWrite)
        }
        // On timeout the pipe is leaked on purpose: a thread still polling it must not see a
        // reused descriptor number.
    }

    // MARK: Routes and logs

    func handler(for path: String) -> FaultServer.Handler? {
        state.withLock { $0.routes[path] }
    }

    func fallbackHandler() -> FaultServer.Handler? {
        state.withLock { $0.fallback }
    }

    /// Logs the request and returns its 1-based attempt number on its path.
    func record(_ request: FaultServer.Request) -> Int {
        state.withLock { state in
            state.log.append(request)
            state.attempts[request.path, default: 0] += 1
            return state.attempts[request.path]!
        }
    }

    /// Adds (or, for a negative count, takes back) body bytes for `path`.
    func countBodyBytes(_ count: Int, path: String) {
        guard count != 0 else { return }
        state.withLock { $0.bodyBytes[path, default: 0] += count }
    }
}
