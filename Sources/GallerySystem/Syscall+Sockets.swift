import Glibc

/// The socket calls of the project's HTTP server (GalleryHTTPServer), checked like the file calls: `-1` +
/// `errno` becomes a ``SystemError`` naming the call and the address, `EINTR` is retried, every descriptor
/// is close-on-exec. Sends never raise SIGPIPE (`MSG_NOSIGNAL`): a client gone is an `EPIPE` error.
extension Syscall {
    /// A TCP socket listening on `host`:`port` (a name, or a numeric IPv4 or IPv6 address, bracketed or not;
    /// port 0 lets the system pick one), with `SO_REUSEADDR`. Returns the descriptor and the port bound.
    public static func listenTCP(host: String, port: Int, backlog: Int32 = 1024) throws(SystemError) -> (fd: Int32, port: Int) {
        let place = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        // An IPv6 address may come bracketed, as in a URL: [::1].
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let status = getaddrinfo(name.isEmpty ? nil : name, String(port), &hints, &list)
        guard status == 0, let first = list else {
            // getaddrinfo's own codes are not errnos; EADDRNOTAVAIL says "no such address" in the same words users know.
            throw SystemError(call: "getaddrinfo", path: place, errno: status == EAI_SYSTEM ? Glibc.errno : EADDRNOTAVAIL)
        }
        defer { freeaddrinfo(list) }
        var failure = SystemError(call: "bind", path: place, errno: EADDRNOTAVAIL)
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { failure = .last("socket", place); continue }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                failure = .last("bind", place)
                closeQuietly(fd)
                continue
            }
            guard listen(fd, backlog) == 0 else {
                failure = .last("listen", place)
                closeQuietly(fd)
                continue
            }
            return (fd, boundPort(fd) ?? port)
        }
        throw failure
    }

    /// The local port of a bound socket.
    static func boundPort(_ fd: Int32) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        let family = address.ss_family
        return withUnsafePointer(to: &address) { pointer -> Int in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// A connection accepted on the listening socket `fd` (close-on-exec, Nagle off: a response's head
    /// and body go out in separate sends).
    public static func accept(_ fd: Int32, place: String) throws(SystemError) -> Int32 {
        while true {
            let client = GNUCalls.accept4(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
            if client >= 0 {
                var one: Int32 = 1
                _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return client
            }
            if errno != EINTR { throw .last("accept", place) }
        }
    }

    /// Receives up to `buffer.count` bytes; 0 when the peer has closed its side.
    public static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, place: String) throws(SystemError) -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno != EINTR { throw .last("recv", place) }
        }
    }

    /// Sends all of `bytes`.
    public static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, place: String) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if n < 0 {
                if errno == EINTR { continue }
                throw .last("send", place)
            }
            done += n
        }
    }

    /// ``sendAll(_:_:place:)-(_,UnsafeRawBufferPointer,_)`` for an array.
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8], place: String) throws(SystemError) {
        try bytes.withBytes { raw throws(SystemError) in try sendAll(fd, raw, place: place) }
    }

    /// Sends `count` bytes of the file open at `file` from `offset` to the socket `fd` (sendfile(2): the
    /// bytes never pass through this process). Throws `EIO` naming `path` when the file ends sooner.
    public static func sendFile(_ fd: Int32, from file: Int32, offset: Int64, count: Int, path: String) throws(SystemError) {
        var position = off_t(offset)
        var left = count
        while left > 0 {
            let n = Glibc.sendfile(fd, file, &position, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw .last("sendfile", path)
            }
            if n == 0 { throw SystemError(call: "sendfile", path: path, errno: EIO) }
            left -= n
        }
    }

    /// Ends both directions of a connection (a thread blocked in it wakes); the descriptor stays open.
    public static func shutdownSocket(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_RDWR)) }

    /// Ends the sending direction of a connection (the peer reads the end of the stream); receiving goes on.
    public static func shutdownSending(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// A pipe, both ends close-on-exec: (read, write).
    public static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        if GNUCalls.pipe2(&ends, O_CLOEXEC) != 0 { throw .last("pipe2", "") }
        return (ends[0], ends[1])
    }

    /// Writes one byte to a pipe's write end (a wake-up), ignoring failures.
    public static func signalPipe(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = Glibc.write(fd, &byte, 1)
    }

    /// What ``waitReadable(_:orWake:milliseconds:)`` saw first.
    public enum Readiness: Sendable { case readable, woken, timedOut }

    /// Waits until `fd` is readable (or closed by the peer), `wake` is readable, or `milliseconds` pass
    /// (-1: no limit).
    public static func waitReadable(_ fd: Int32, orWake wake: Int32, milliseconds: Int32) -> Readiness {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, 2, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { return .timedOut }
            if ready < 0 || descriptors[1].revents != 0 { return .woken }
            return .readable
        }
    }
}

/// accept4 and pipe2, which Swift's Glibc module hides behind `_GNU_SOURCE`, looked up once. Both set
/// close-on-exec in the same call: a child process started by another thread (a test's curl or nginx) in
/// between would otherwise inherit the descriptor and hold the connection open.
private enum GNUCalls {
    typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    static let accept4 = symbol("accept4", as: Accept4.self)
    static let pipe2 = symbol("pipe2", as: Pipe2.self)

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("glibc lacks \(name)") }
        return unsafeBitCast(address, to: type)
    }
}
