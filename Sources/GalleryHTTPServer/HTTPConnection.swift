import Dispatch
import GallerySync
import GallerySystem
#if canImport(Glibc)
import Glibc
#endif

/// One client connection, on a thread of its own: requests read one after another (kept alive as HTTP/1.1
/// asks), each answered by the server's handler, until the client closes, a request asks to close, the
/// connection idles past the limit, or the server stops.
struct HTTPConnection {
    let server: HTTPServer
    let fd: Int32
    private let place: String
    private var buffer: [UInt8] = []
    private var start = 0

    init(server: HTTPServer, fd: Int32) {
        self.server = server
        self.fd = fd
        self.place = "connection on port \(server.port)"
    }

    mutating func run() {
        buffer.reserveCapacity(16 << 10)
        while !server.isStopping {
            switch RequestHeadParser.parse(buffer[start...], limit: server.configuration.maxHeadBytes) {
            case .incomplete:
                // Waiting for a new request is idling; part of one must keep coming too.
                guard receiveMore(waitMilliseconds: server.configuration.idleTimeoutMilliseconds) else { return }
            case let .refused(status, reason):
                if send(.text(status, reason + "\n"), isHead: false, closing: true) { drainBeforeClosing() }
                return
            case let .request(request, length, bodyLength):
                start += length
                guard dropBody(bodyLength) else { return }
                compact()
                let keepAlive = request.keepsAlive
                let response = server.answer(request)
                let closing = !keepAlive || server.isStopping
                guard send(response, isHead: request.isHead, closing: closing), !closing else { return }
            }
        }
    }

    /// Receives into the buffer; false when the client closed, the wait ran out or the server is stopping.
    private mutating func receiveMore(waitMilliseconds: Int32) -> Bool {
        guard Syscall.waitReadable(fd, orWake: server.wakeRead, milliseconds: waitMilliseconds) == .readable else { return false }
        let chunk = 16 << 10
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let received = buffer.withUnsafeMutableBytes { raw in
            try? Syscall.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[old...]), place: place)
        }
        buffer.removeLast(chunk - (received ?? 0))
        return (received ?? 0) > 0
    }

    /// Skips a request body (no route reads one), receiving it as it comes; false if the client stops sending.
    private mutating func dropBody(_ length: Int) -> Bool {
        var left = length
        while left > 0 {
            let here = min(left, buffer.count - start)
            start += here
            left -= here
            compact()
            if left > 0, !receiveMore(waitMilliseconds: server.configuration.idleTimeoutMilliseconds) { return false }
        }
        return true
    }

    /// Ends the sending side and reads what the client still sends (for at most a second) before the close:
    /// closing with unread bytes makes the kernel reset the connection, and a reset can cost the client
    /// the answer it has not read yet (a refused oversized head, say).
    private func drainBeforeClosing() {
        Syscall.shutdownSending(fd)
        var scratch = [UInt8](repeating: 0, count: 16 << 10)
        let deadline = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < deadline,
              Syscall.waitReadable(fd, orWake: server.wakeRead, milliseconds: 200) == .readable {
            let n = scratch.withUnsafeMutableBytes { raw in (try? Syscall.receive(fd, into: raw, place: place)) ?? 0 }
            if n == 0 { return }
        }
    }

    /// Drops the bytes already parsed.
    private mutating func compact() {
        guard start > 0 else { return }
        buffer.removeFirst(start)
        start = 0
    }

    /// Writes the head and (unless a HEAD request or a status without one) the body; false if the client is gone.
    private func send(_ response: HTTPServerResponse, isHead: Bool, closing: Bool) -> Bool {
        var response = response
        var file: Int32?
        if case let .file(path, _, _) = response.body, !isHead, !response.forbidsBody {
            guard let opened = try? Syscall.open(path, O_RDONLY) else {
                response = .text(500, "cannot read \(path)\n")
                return send(response, isHead: isHead, closing: closing)
            }
            file = opened
        }
        defer { if let file { Syscall.closeQuietly(file) } }
        let head = response.head(serverName: server.configuration.serverName, date: server.dateText(), closing: closing)
        do throws(SystemError) {
            try Syscall.sendAll(fd, head, place: place)
            guard !isHead, !response.forbidsBody else { return true }
            switch response.body {
            case .none: break
            case .bytes(let bytes):
                try Syscall.sendAll(fd, bytes, place: place)
            case let .file(path, offset, count):
                if let file { try Syscall.sendFile(fd, from: file, offset: offset, count: count, path: path) }
            }
            return true
        } catch {
            return false
        }
    }
}
