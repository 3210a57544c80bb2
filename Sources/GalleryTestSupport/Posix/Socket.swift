#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin checked wrappers over the socket calls the fault server makes. Every descriptor is
/// created close-on-exec so that `curl` or nginx children spawned by a test never inherit a
/// server socket (an inherited socket would keep a "closed" connection open).
enum Socket {
    /// Runs a call that returns -1 on failure, retrying on EINTR, and turns errno into a typed error.
    @discardableResult
    static func check(_ operation: String, _ call: () -> Int32) throws(TestSupportError) -> Int32 {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw .system(operation: operation, errno: errno)
        }
    }

    /// A listening TCP socket on 127.0.0.1 with a kernel-chosen port.
    static func listenOnLoopback(port: UInt16 = 0) throws(TestSupportError) -> (fd: Int32, port: UInt16) {
        let fd = try check("socket") { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            var one: Int32 = 1
            try check("setsockopt(SO_REUSEADDR)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = loopbackAddress(port: port)
            try check("bind(127.0.0.1:\(port))") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            try check("listen") { listen(fd, 128) }
            return (fd, try boundPort(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    /// A port that was free a moment ago: bind port 0, read the port, close. Used to hand nginx
    /// a port, which it must bind itself.
    static func freeLoopbackPort() throws(TestSupportError) -> UInt16 {
        let (fd, port) = try listenOnLoopback()
        close(fd)
        return port
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
    static func canConnect(port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    static func boundPort(_ fd: Int32) throws(TestSupportError) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try check("getsockname") {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Accepts one connection, close-on-exec.
    static func accept(_ listenFD: Int32) throws(TestSupportError) -> Int32 {
        try check("accept4") { GNUFunctions.accept4(listenFD, nil, nil, Int32(SOCK_CLOEXEC.rawValue)) }
    }

    /// Reads up to `capacity` bytes; returns an empty array at end of stream or on error
    /// (a reset by the peer is just the end of that connection for a test server).
    static func receive(_ fd: Int32, capacity: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, capacity, 0) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return []
        }
    }

    /// `read(2)` counterpart of `receive` for pipes.
    static func receiveFile(_ fd: Int32, capacity: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, capacity) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count < 0 && errno == EINTR { continue }
            return []
        }
    }

    /// Writes all bytes; returns how many the kernel accepted (fewer than asked means the peer is
    /// gone). MSG_NOSIGNAL keeps a vanished client from raising SIGPIPE, which would kill the
    /// whole test process.
    static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes {
                send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        return offset - bytes.startIndex
    }

    /// Sets SO_SNDBUF (the kernel doubles it and stops autotuning it).
    static func setSendBuffer(_ fd: Int32, _ bytes: Int) {
        var size = Int32(clamping: bytes)
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes the coming `close` send a TCP RST instead of a FIN (SO_LINGER with a zero timeout).
    static func resetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Bytes written to `fd` that the peer has not yet acknowledged (SIOCOUTQ), or nil if unknown.
    static func unacknowledgedBytes(_ fd: Int32) -> Int? {
        var count: Int32 = 0
        return ioctl(fd, UInt(TIOCOUTQ), &count) == 0 ? Int(count) : nil
    }

    /// Waits until `fd` is readable or `timeout` seconds pass (nil: forever). True if readable.
    static func waitReadable(_ fd: Int32, timeout: Double?) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, Double(Int32.max)))) } ?? -1
        while true {
            let result = poll(&descriptor, 1, milliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }
}
