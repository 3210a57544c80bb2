import Foundation
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// A scripted DNS server on UDP 127.0.0.x, answering as a forwarding resolver would (recursion available,
/// CNAME chains followed into the answer), for testing a resolver against real sockets.
///
/// ```swift
/// let dns = try TestDNSServer()
/// dns.set("photos.test", .address(v4: ["127.0.0.1"], ttl: 60))
/// dns.set("gone.test", .nameError)
/// dns.answersPerSecond = 50          // drop what comes past 50 questions in a second
/// // ... resolve through dns.address ("127.0.0.1:PORT") ...
/// #expect(dns.questions("photos.test", .a) == 1)
/// ```
///
/// Names without a script answer NXDOMAIN. Its wire code is its own (not the resolver's under test), so a
/// shared misreading of the format cannot hide.
public final class TestDNSServer: Sendable {
    public enum RecordType: UInt16, Sendable { case a = 1, cname = 5, soa = 6, aaaa = 28 }

    public indirect enum Behaviour: Sendable {
        /// A and AAAA records (either list may be empty: "no data" for that type) with a TTL.
        case address(v4: [String], v6: [String] = [], ttl: UInt32 = 300)
        /// An alias: the answer carries the chain and the target's records.
        case alias(String, ttl: UInt32 = 300)
        /// NXDOMAIN, with an SOA whose negative TTL is `negativeTTL`.
        case nameError(negativeTTL: UInt32 = 300)
        case serverFailure
        case refused
        /// Never answers.
        case silent
        /// Answers as `then` after `seconds`.
        case delayed(Double, then: Behaviour)
        /// Answers the first `count` questions for this name and type `.silent`, then as `then`.
        case silentFirst(Int, then: Behaviour)
        /// Over UDP, an answer with the TC bit and no records; over TCP (on the same port), `then`.
        case truncatedOverUDP(then: Behaviour)
        /// A questions (and any type but AAAA) as `a`, AAAA questions as `aaaa`.
        case byType(a: Behaviour, aaaa: Behaviour)
    }

    private struct State {
        var scripts: [String: Behaviour] = [:]
        var questions: [String: Int] = [:]
        var dropped = 0
        var tcpQuestions = 0
        var answered = 0
        var window: (start: Double, count: Int) = (0, 0)
        var answersPerSecond: Int?
        var peakAnswersInASecond = 0
        var stopped = false
    }

    private let fd: Int32
    private let tcp: Int32?
    /// "127.0.0.1:PORT", as `--dns-server` takes it.
    public let address: String
    public let port: UInt16
    private let state = Locked(State())

    /// Listens on UDP `host` (a 127.0.0.0/8 address) on `port`, or a free port when 0, and on TCP on the
    /// same port when `host` is 127.0.0.1 and no port is given (a port free for both is looked for: TCP
    /// first, then UDP on it). Port 53 of an address of its own makes it an authority in a ``DNSHierarchy``.
    public init(host: String = "127.0.0.1", port: UInt16 = 0) throws(TestSupportError) {
        var found: (udp: Int32, tcp: Int32?, port: UInt16)?
        var lastError = TestSupportError.system(operation: "bind(\(host), UDP)", errno: EADDRINUSE)
        for _ in 0..<20 where found == nil {
            let tcp = host == "127.0.0.1" && port == 0 ? try? Socket.listenOnLoopback() : nil
            do {
                let (udp, port) = try Self.bindUDP(host: host, port: tcp?.port ?? port)
                found = (udp, tcp?.fd, port)
            } catch {
                lastError = error
                if let tcp { close(tcp.fd) }
            }
        }
        guard let found else { throw lastError }
        fd = found.udp
        tcp = found.tcp
        self.port = found.port
        address = "\(host):\(found.port)"
        let state = state
        let (udp, tcp) = (fd, tcp)
        NamedThread.start("test-dns") { Self.serve(fd: udp, state: state) }
        if let tcp { NamedThread.start("test-dns-tcp") { Self.serveTCP(fd: tcp, state: state) } }
    }

    private static func bindUDP(host: String, port: UInt16) throws(TestSupportError) -> (Int32, UInt16) {
        let fd = try Socket.check("socket(UDP)") { socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &sin.sin_addr)
        do {
            try Socket.check("bind(\(host):\(port), UDP)") {
                withUnsafePointer(to: &sin) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            return (fd, try Socket.boundPort(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { stop() }

    /// Stops answering and closes the socket.
    public func stop() {
        let first = state.withLock { s in
            defer { s.stopped = true }
            return !s.stopped
        }
        // Shut down only: each serving thread closes its own socket on its way out, so a descriptor number
        // is never reused under a thread still reading from it.
        if first {
            shutdown(fd, Int32(SHUT_RDWR))
            if let tcp { shutdown(tcp, Int32(SHUT_RDWR)) }
        }
    }

    public func set(_ name: String, _ behaviour: Behaviour) {
        state.withLock { $0.scripts[name.lowercased()] = behaviour }
    }

    /// At most this many questions answered in any one-second window; the rest are dropped. nil: all.
    public var answersPerSecond: Int? {
        get { state.withLock { $0.answersPerSecond } }
        set { state.withLock { $0.answersPerSecond = newValue } }
    }

    /// Questions received for `name` and `type` (answered or not).
    public func questions(_ name: String, _ type: RecordType) -> Int {
        state.withLock { $0.questions["\(name.lowercased())/\(type.rawValue)"] ?? 0 }
    }

    /// Every question received, all names and types.
    public var totalQuestions: Int { state.withLock { $0.questions.values.reduce(0, +) } }
    /// Questions received over TCP.
    public var tcpQuestions: Int { state.withLock { $0.tcpQuestions } }
    /// Questions dropped by the rate limit.
    public var dropped: Int { state.withLock { $0.dropped } }
    /// The most questions answered within one window.
    public var peakAnswersInASecond: Int { state.withLock { $0.peakAnswersInASecond } }

    private static func serve(fd: Int32, state: Locked<State>) {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let n = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &from) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length) }
                }
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0, let query = TestDNSWire.Query(Array(buffer[0..<n])) else {
                if state.withLock({ $0.stopped }) || n < 0 {
                    close(fd)
                    return
                }
                continue
            }
            let key = "\(query.name)/\(query.type)"
            let now = Date().timeIntervalSinceReferenceDate
            let (behaviour, seen, drop): (Behaviour?, Int, Bool) = state.withLock { s in
                s.questions[key, default: 0] += 1
                if let limit = s.answersPerSecond {
                    if now - s.window.start >= 1 { s.window = (now, 0) }
                    if s.window.count >= limit {
                        s.dropped += 1
                        return (nil, 0, true)
                    }
                    s.window.count += 1
                    s.peakAnswersInASecond = max(s.peakAnswersInASecond, s.window.count)
                }
                s.answered += 1
                return (s.scripts[query.name] ?? .nameError(negativeTTL: 300), s.questions[key]!, false)
            }
            guard !drop, let behaviour else { continue }
            answer(query, behaviour, seen: seen, fd: fd, to: from, state: state)
        }
    }

    /// One question per connection, length-prefixed (RFC 1035 §4.2.2); a truncated-over-UDP name answers
    /// in full here.
    private static func serveTCP(fd: Int32, state: Locked<State>) {
        while let connection = try? Socket.accept(fd) {
            var bytes: [UInt8] = []
            while bytes.count < 2 || bytes.count < 2 + (Int(bytes[0]) << 8 | Int(bytes[1])) {
                let more = Socket.receive(connection)
                if more.isEmpty { break }
                bytes += more
            }
            if bytes.count > 2, let query = TestDNSWire.Query(Array(bytes.dropFirst(2))) {
                let (behaviour, scripts) = state.withLock { s in
                    s.tcpQuestions += 1
                    return (s.scripts[query.name] ?? .nameError(negativeTTL: 300), s.scripts)
                }
                var served = behaviour
                if case .truncatedOverUDP(let then) = behaviour { served = then }
                let reply = TestDNSWire.response(to: query, served, scripts: scripts)
                _ = Socket.sendAll(connection, ([UInt8(reply.count >> 8), UInt8(reply.count & 0xFF)] + reply)[...])
            }
            close(connection)
        }
        close(fd)
    }

    private static func answer(_ query: TestDNSWire.Query, _ behaviour: Behaviour, seen: Int, fd: Int32,
                               to: sockaddr_in, state: Locked<State>) {
        switch behaviour {
        case .silent: return
        case .silentFirst(let count, let then):
            if seen > count { answer(query, then, seen: seen, fd: fd, to: to, state: state) }
        case .delayed(let seconds, let then):
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                answer(query, then, seen: seen, fd: fd, to: to, state: state)
            }
        case .byType(let a, let aaaa):
            answer(query, query.type == 28 ? aaaa : a, seen: seen, fd: fd, to: to, state: state)
        default:
            let scripts = state.withLock { $0.scripts }
            send(TestDNSWire.response(to: query, behaviour, scripts: scripts), fd: fd, to: to)
        }
    }

    private static func send(_ bytes: [UInt8], fd: Int32, to: sockaddr_in) {
        var to = to
        _ = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &to) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }
}
