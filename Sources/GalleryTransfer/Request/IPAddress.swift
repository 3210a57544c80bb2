import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The kind of network an IP address belongs to, for deciding whether a URL from a server may make us
/// connect there (see `AddressPolicy`).
public enum AddressClass: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 127.0.0.0/8, ::1: this machine.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7 (unique local), fec0::/10.
    case privateNetwork = "private"
    /// 169.254/16, fe80::/10 and fd00:ec2::254: the local link (cloud metadata services live here).
    case linkLocal = "link-local"
    /// Everything else that can be connected to.
    case publicInternet = "public"
    /// 0.0.0.0/8, ::: "this host" addresses; never connected to (Linux would reach loopback).
    case unspecified
    /// 224/4, 255.255.255.255, ff00::/8: never connected to.
    case multicast = "multicast or broadcast"

    public var description: String { rawValue }

    /// How close to this machine the class is: 0 public, 1 private, 2 link-local, 3 loopback; nil for the
    /// classes that are never connected to. A URL may lead from one class to a less private one, not to a
    /// more private one.
    public var privacy: Int? {
        switch self {
        case .publicInternet: 0
        case .privateNetwork: 1
        case .linkLocal: 2
        case .loopback: 3
        case .unspecified, .multicast: nil
        }
    }
}

/// An IPv4 or IPv6 address as bytes (4 or 16), parsed from text or from a socket address.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// Network byte order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses a literal: `192.0.2.1`, `::1`, `::ffff:10.0.0.1`, `[fe80::1]`. Nil for anything else
    /// (host names, zone ids, shorthand such as `127.1`, which inet_pton refuses).
    public init?(_ text: String) {
        var literal = text
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// Reads an AF_INET or AF_INET6 socket address of `length` bytes; nil for other families.
    public init?(socketAddress: UnsafePointer<sockaddr>, length: Int) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET where length >= MemoryLayout<sockaddr_in>.size:
            let raw = UnsafeRawPointer(socketAddress).load(as: sockaddr_in.self)
            var address = raw.sin_addr
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        case AF_INET6 where length >= MemoryLayout<sockaddr_in6>.size:
            let raw = UnsafeRawPointer(socketAddress).load(as: sockaddr_in6.self)
            var address = raw.sin6_addr
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        default:
            return nil
        }
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) or NAT64
    /// (64:ff9b::a.b.c.d) IPv6 address: connecting to one of those reaches that IPv4 host.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let head = bytes[0..<12]
        let mapped = head.dropLast(2).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        let compatible = head.allSatisfy { $0 == 0 } && bytes[12...].contains { $0 != 0 }
            && !(bytes[12] == 0 && bytes[13] == 0 && bytes[14] == 0 && bytes[15] <= 1)  // ::, ::1
        let nat64 = bytes[0...11] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0][...]
        guard mapped || compatible || nat64 else { return nil }
        return IPAddress(v4: Array(bytes[12...]))
    }

    private init(v4: [UInt8]) { bytes = v4 }

    /// An address from its 4 or 16 bytes in network order; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The class of this address; an IPv6 address carrying an IPv4 one is classified by the IPv4 address.
    public var addressClass: AddressClass {
        if let inner = embeddedIPv4 { return inner.addressClass }
        return isIPv4 ? Self.classifyV4(bytes) : Self.classifyV6(bytes)
    }

    private static func classifyV4(_ b: [UInt8]) -> AddressClass {
        switch (b[0], b[1]) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .privateNetwork
        case (169, 254): return .linkLocal
        case (224...239, _): return .multicast
        case (255, 255) where b[2] == 255 && b[3] == 255: return .multicast
        default: return .publicInternet
        }
    }

    private static let metadataV6: [UInt8] = [0xFD, 0, 0x0E, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]

    private static func classifyV6(_ b: [UInt8]) -> AddressClass {
        if b.allSatisfy({ $0 == 0 }) { return .unspecified }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
        if b[0] == 0xFF { return .multicast }
        // fd00:ec2::254, the cloud metadata service's IPv6 address, is link-local in all but its prefix.
        if b == Self.metadataV6 { return .linkLocal }
        if b[0] & 0xFE == 0xFC { return .privateNetwork }            // fc00::/7
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }  // fe80::/10
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .privateNetwork }  // fec0::/10, deprecated site-local
        return .publicInternet
    }

    /// The usual text form (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = isIPv4 ? AF_INET : AF_INET6
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
