import Foundation
import GallerySystem

/// A nameserver to forward questions to: an IP address and a UDP port (53 unless given).
public struct DNSServer: Sendable, Hashable, CustomStringConvertible {
    public var address: IPAddress
    public var port: UInt16

    public init(address: IPAddress, port: UInt16 = 53) {
        self.address = address
        self.port = port
    }

    /// Parses `HOST[:PORT]`: `127.0.0.53`, `127.0.0.1:5353`, `::1`, `[::1]:5353`. The host must be an IP
    /// address (a resolver cannot be found by name); nil otherwise.
    public init?(_ text: String) {
        var host = Substring(text.trimmingCharacters(in: .whitespaces))
        var port: UInt16 = 53
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let p = UInt16(rest.dropFirst()), p > 0 else { return nil }
                port = p
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            guard let p = UInt16(host[host.index(after: colon)...]), p > 0 else { return nil }
            port = p
            host = host[..<colon]
        }
        guard let address = IPAddress(String(host)) else { return nil }
        self.init(address: address, port: port)
    }

    /// "127.0.0.1:53", "[::1]:53".
    public var description: String {
        address.isIPv4 ? "\(address):\(port)" : "[\(address)]:\(port)"
    }

    /// The `nameserver` lines of a resolv.conf (resolv.conf(5)); a scope suffix (`fe80::1%eth0`) is not
    /// supported and such a line is skipped.
    public static func parseResolvConf(_ text: String) -> [DNSServer] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0] == "nameserver" else { return nil }
            return DNSServer(String(fields[1]))
        }
    }

    /// The system's nameservers from `path`, or the error naming the file and what is wrong with it.
    public static func system(resolvConf path: String = "/etc/resolv.conf") throws(DNSSetupError) -> [DNSServer] {
        let bytes: [UInt8]?
        do { bytes = try Syscall.readAll(path) } catch { throw DNSSetupError("cannot read \(path): \(error)") }
        guard let bytes else { throw DNSSetupError("\(path) does not exist: give a resolver with --dns-server HOST[:PORT]") }
        let servers = parseResolvConf(String(decoding: bytes, as: UTF8.self))
        guard !servers.isEmpty else {
            throw DNSSetupError("\(path) names no nameserver: give one with --dns-server HOST[:PORT]")
        }
        return servers
    }
}

/// A resolver that cannot be set up or does not answer at all (the message names it).
public struct DNSSetupError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
