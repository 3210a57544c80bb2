import Foundation
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of an S3 service (the tests' ``RadosGateway``) that counts the
/// bytes clients send and answers chosen requests itself with an S3 error (`503 SlowDown` for a
/// while, a `400` for one part of a multipart upload) instead of passing them on, or cuts the
/// gateway's answer to chosen requests short (a download that breaks off).
///
/// The Host header is passed on unchanged, so signatures made for the proxy's address verify at the
/// gateway. Each request gets its own upstream connection (`Connection: close` is added), so a request
/// is always one connection: simple to count, and what a fault is decided on.
public final class S3FaultProxy: @unchecked Sendable {
    /// One request as the proxy saw it.
    public struct Seen: Sendable, Equatable {
        /// `PUT`, `GET`, ...
        public var method: String
        /// The request target (`/bucket/key?query`).
        public var target: String
        /// Bytes the client sent on the connection (head and body).
        public var bytesIn: Int
        /// The status the proxy answered itself, nil when the request went to the gateway.
        public var injected: Int?
        /// When the request's head arrived, on the proxy's clock (one tick per arrival or answer).
        public var arrived = 0
        /// When the proxy began passing the answer to the client, on the same clock: the client can
        /// have had no answer before (nil: not answered yet, or the gateway closed without one).
        public var answered: Int?
    }

    private struct Fault {
        var method: String?
        var targetContains: String?
        var status: Int
        var code: String
        var remaining: Int
    }

    private struct State {
        var faults: [Fault] = []
        /// Requests by connection number, recorded when their head arrives (before any answer), so a
        /// client that has its answer always finds its request here.
        var seen: [(connection: Int, request: Seen)] = []
        var connections = 0
        var stopped = false
        var uploadRate: Int?
        var cuts: [(targetContains: String, afterBodyBytes: Int, remaining: Int)] = []
        var delays: [(method: String, targetContains: String, seconds: Double)] = []
        /// Ticks once per arrival and per answer (``Seen/arrived``, ``Seen/answered``).
        var clock = 0
    }

    private let upstreamPort: UInt16
    private let listenFD: Int32
    /// The proxy's port.
    public let port: UInt16
    private let state = Locked(State())

    /// `http://127.0.0.1:PORT`.
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Listens on a free port and forwards to 127.0.0.1:`upstreamPort`.
    public init(upstreamPort: UInt16) throws(TestSupportError) {
        self.upstreamPort = upstreamPort
        (listenFD, port) = try Socket.listenOnLoopback()
        // Accepted connections inherit it: little of a throttled upload can hide in the kernel's buffers.
        var small: Int32 = 32 * 1024
        setsockopt(listenFD, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let fd = listenFD
        NamedThread.start("s3-proxy") { [self] in
            while let client = try? Socket.accept(fd) {
                NamedThread.start("s3-proxy-conn") { [self] in serve(client) }
            }
        }
    }

    deinit { stop() }

    /// Stops accepting connections (those under way finish).
    public func stop() {
        let first = state.withLock { s in
            defer { s.stopped = true }
            return !s.stopped
        }
        if first {
            shutdown(listenFD, Int32(SHUT_RDWR))
            close(listenFD)
        }
    }

    /// Answers the next `count` requests that match (method, and a substring of the target) with
    /// `status` and an S3 error document of `code`, without passing them on.
    public func fail(next count: Int, status: Int = 503, code: String = "SlowDown",
                     method: String? = nil, targetContains: String? = nil) {
        state.withLock {
            $0.faults.append(Fault(method: method, targetContains: targetContains, status: status, code: code, remaining: count))
        }
    }

    /// Closes the connection of the next `count` requests whose target contains `targetContains` once
    /// `afterBodyBytes` bytes of the gateway's answer body have gone to the client (the head says more).
    public func cutResponses(next count: Int, targetContains: String, afterBodyBytes: Int) {
        state.withLock { $0.cuts.append((targetContains, afterBodyBytes, count)) }
    }

    /// Holds the gateway's answer to every `method` request whose target contains `targetContains` for
    /// `seconds` before passing it on (the gateway has done the request; its client does not know yet).
    public func delayAnswers(method: String, targetContains: String, by seconds: Double) {
        state.withLock { $0.delays.append((method, targetContains, seconds)) }
    }

    /// Forgets the faults, cuts and delays not used up yet.
    public func clearFaults() {
        state.withLock { s in
            s.faults = []
            s.cuts = []
            s.delays = []
        }
    }

    /// Passes what clients send on to the gateway at no more than `bytesPerSecond` (nil: at once), with
    /// small socket buffers, so an upload takes the time its size says.
    public func throttleUploads(to bytesPerSecond: Int?) { state.withLock { $0.uploadRate = bytesPerSecond } }

    /// Every request so far, in arrival order.
    public var seen: [Seen] { state.withLock { $0.seen.map(\.request) } }

    /// Forgets the requests seen so far.
    public func resetSeen() { state.withLock { $0.seen = [] } }

    private func serve(_ client: Int32) {
        defer { close(client) }
        // The head: up to the blank line.
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            let chunk = Socket.receive(client)
            if chunk.isEmpty { return }
            buffer += chunk
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        let method = requestLine.first.map(String.init) ?? ""
        let target = requestLine.count > 1 ? String(requestLine[1]) : ""
        func header(_ name: String) -> String? {
            lines.dropFirst().first { $0.lowercased().hasPrefix(name + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let length = Int(header("content-length") ?? "") ?? 0
        let expectsContinue = header("expect")?.lowercased() == "100-continue"
        let fault = takeFault(method: method, target: target)
        let connection = record(Seen(method: method, target: target, bytesIn: buffer.count, injected: fault?.status))
        if let fault {
            // The body is read (unless the client waits for 100 Continue) so closing does not reset the
            // connection under the client before it reads the answer.
            var received = buffer.count
            if !expectsContinue {
                while received < headEnd! + 4 + length {
                    let chunk = Socket.receive(client)
                    if chunk.isEmpty { break }
                    received += chunk.count
                    count(chunk.count, connection)
                }
            }
            let body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>\(fault.code)</Code><Message>injected by the test proxy</Message></Error>"
            let answer = "HTTP/1.1 \(fault.status) Injected\r\nContent-Type: application/xml\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            answering(connection)
            _ = Socket.sendAll(client, Array(answer.utf8)[...])
            return
        }
        guard let upstream = Self.connectLoopback(port: upstreamPort) else { return }
        defer { close(upstream) }
        let rewritten = lines.filter { !$0.lowercased().hasPrefix("connection:") }.joined(separator: "\r\n")
            + "\r\nConnection: close\r\n\r\n"
        _ = Socket.sendAll(upstream, Array(rewritten.utf8)[...])
        _ = Socket.sendAll(upstream, buffer[(headEnd! + 4)...])
        let delay = state.withLock { s in
            s.delays.filter { $0.method == method && target.contains($0.targetContains) }.map(\.seconds).max()
        }
        pump(client: client, upstream: upstream, connection: connection, cutAfter: takeCut(target: target), delay: delay)
    }

    private func takeFault(method: String, target: String) -> Fault? {
        state.withLock { s in
            guard let index = s.faults.firstIndex(where: { f in
                f.remaining > 0 && (f.method == nil || f.method == method)
                    && (f.targetContains == nil || target.contains(f.targetContains!))
            }) else { return nil }
            s.faults[index].remaining -= 1
            return s.faults[index]
        }
    }

    private func takeCut(target: String) -> Int? {
        state.withLock { s in
            guard let index = s.cuts.firstIndex(where: { $0.remaining > 0 && target.contains($0.targetContains) }) else { return nil }
            s.cuts[index].remaining -= 1
            return s.cuts[index].afterBodyBytes
        }
    }

    /// Records a request, the clock ticking, and returns its connection number.
    private func record(_ seen: Seen) -> Int {
        state.withLock { s in
            var seen = seen
            s.clock += 1
            seen.arrived = s.clock
            s.connections += 1
            s.seen.append((s.connections, seen))
            return s.connections
        }
    }

    /// The answer to `connection`'s request is about to go to the client: ticks the clock and records it.
    private func answering(_ connection: Int) {
        state.withLock { s in
            guard let index = s.seen.lastIndex(where: { $0.connection == connection }),
                  s.seen[index].request.answered == nil else { return }
            s.clock += 1
            s.seen[index].request.answered = s.clock
        }
    }

    /// Adds bytes a client sent to its request's count (if the record was not reset since).
    private func count(_ bytes: Int, _ connection: Int) {
        state.withLock { s in
            if let index = s.seen.lastIndex(where: { $0.connection == connection }) { s.seen[index].request.bytesIn += bytes }
        }
    }

    /// Relays both ways until the gateway closes, counting the client's bytes; with `cutAfter`, stops
    /// once that many bytes of the answer's body went to the client; with `delay`, holds the answer that
    /// long before its first byte goes on.
    private func pump(client: Int32, upstream: Int32, connection: Int, cutAfter: Int? = nil, delay: Double? = nil) {
        var clientOpen = true
        var answer: [UInt8] = [], bodyStart: Int?, answerStarted = false
        while true {
            var fds = [pollfd(fd: upstream, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: clientOpen ? client : -1, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 30_000) > 0 else { return }
            if fds[1].revents != 0 {
                let rate = state.withLock { $0.uploadRate }
                let chunk = Socket.receive(client, capacity: rate == nil ? 65_536 : 16_384)
                if chunk.isEmpty { clientOpen = false } else {
                    if let rate { usleep(UInt32(Double(chunk.count) / Double(rate) * 1e6)) }
                    count(chunk.count, connection)
                    _ = Socket.sendAll(upstream, chunk[...])
                }
            }
            if fds[0].revents != 0 {
                var chunk = Socket.receive(upstream)
                if chunk.isEmpty { return }
                if !answerStarted {
                    answerStarted = true
                    if let delay { usleep(UInt32(delay * 1e6)) }
                    answering(connection)
                }
                if let cutAfter {
                    answer += chunk
                    bodyStart = bodyStart ?? Self.find([13, 10, 13, 10], in: answer).map { $0 + 4 }
                    if let bodyStart, answer.count - bodyStart >= cutAfter {
                        chunk = Array(chunk.dropLast(answer.count - bodyStart - cutAfter))
                        _ = Socket.sendAll(client, chunk[...])
                        return
                    }
                }
                if Socket.sendAll(client, chunk[...]) < chunk.count { return }
            }
        }
    }

    private static func connectLoopback(port: UInt16) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = Socket.loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { close(fd); return nil }
        return fd
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
