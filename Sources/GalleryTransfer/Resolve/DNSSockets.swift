import Foundation
import GallerySystem
#if canImport(Glibc)
import Glibc
#endif

/// The exchange's sockets: one non-blocking UDP socket per address family in use, and a datagram socket
/// pair whose one end wakes the loop's poll(2) when a question is submitted.
struct DNSSockets: Sendable {
    private let v4: Int32?
    private let v6: Int32?
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// `families`: true for IPv4, false for IPv6.
    init(families: Set<Bool>) throws(DNSSetupError) {
        func open(_ family: Int32) throws(DNSSetupError) -> Int32 {
            let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw DNSSetupError("cannot open a UDP socket for DNS: \(String(cString: strerror(errno)))") }
            return fd
        }
        v4 = families.contains(true) ? try open(AF_INET) : nil
        v6 = families.contains(false) ? try open(AF_INET6) : nil
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw DNSSetupError("cannot open the DNS loop's wake-up socket: \(String(cString: strerror(errno)))")
        }
        wakeRead = pair[0]
        wakeWrite = pair[1]
    }

    func wake() {
        var byte: UInt8 = 1
        _ = Glibc.send(wakeWrite, &byte, 1, Int32(MSG_DONTWAIT))  // a full pair already wakes the loop
    }

    func close() {
        for fd in [v4, v6, wakeRead, wakeWrite].compactMap({ $0 }) { Syscall.closeQuietly(fd) }
    }

    func send(_ bytes: [UInt8], to server: DNSServer) {
        guard let fd = server.address.isIPv4 ? v4 : v6 else { return }
        _ = server.withSocketAddress { address, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), address, length) }
        }
    }

    /// Waits up to `milliseconds` for datagrams and returns every one that arrived, with its sender.
    func wait(milliseconds: Int32, buffer: inout [UInt8]) -> [([UInt8], DNSServer?)] {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        for fd in [v4, v6].compactMap({ $0 }) { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        guard poll(&fds, nfds_t(fds.count), milliseconds) > 0 else { return [] }
        var received: [([UInt8], DNSServer?)] = []
        if fds[0].revents != 0 {
            while buffer.withUnsafeMutableBytes({ recv(wakeRead, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        }
        for entry in fds.dropFirst() where entry.revents != 0 {
            while received.count < 512 {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let n = buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &storage) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(entry.fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT), $0, &length)
                        }
                    }
                }
                guard n > 0 else { break }
                let from = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { DNSServer(socketAddress: $0, length: Int(length)) }
                }
                received.append((Array(buffer[0..<n]), from))
            }
        }
        return received
    }

    /// One question over TCP (two-byte length prefix, RFC 1035 §4.2.2), blocking, 4 s at most per step.
    static func askOverTCP(_ name: String, _ type: DNSMessage.RecordType, server: DNSServer) -> DNSMessage? {
        let fd = socket(server.address.isIPv4 ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { Syscall.closeQuietly(fd) }
        var limit = timeval(tv_sec: 4, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard server.withSocketAddress({ connect(fd, $0, $1) }) == 0 else { return nil }
        let id = UInt16.random(in: 0...UInt16.max)
        let query = DNSMessage(id: id, questionName: name, questionType: type.rawValue).encoded()
        let framed = [UInt8(query.count >> 8), UInt8(query.count & 0xFF)] + query
        guard framed.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == framed.count,
              let head = receiveExactly(fd, 2) else { return nil }
        guard let body = receiveExactly(fd, Int(head[0]) << 8 | Int(head[1])),
              let message = DNSMessage(decoding: body), message.id == id, message.isResponse,
              message.questionName == name.lowercased(), message.questionType == type.rawValue else { return nil }
        return message
    }

    private static func receiveExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            guard n > 0 else { return nil }
            got += n
        }
        return out
    }
}

extension DNSServer {
    init?(socketAddress: UnsafePointer<sockaddr>, length: Int) {
        guard let ip = IPAddress(socketAddress: socketAddress, length: length) else { return nil }
        let port: UInt16
        if ip.isIPv4 {
            port = UInt16(bigEndian: UnsafeRawPointer(socketAddress).load(as: sockaddr_in.self).sin_port)
        } else {
            port = UInt16(bigEndian: UnsafeRawPointer(socketAddress).load(as: sockaddr_in6.self).sin6_port)
        }
        self.init(address: ip, port: port)
    }

    func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        if address.isIPv4 {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &a.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &a.sin6_addr) { $0.copyBytes(from: address.bytes) }
        return withUnsafePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
    }
}
