/// Turns a host name into addresses ahead of a transfer, so that libcurl connects to what we resolved
/// (`CURLOPT_RESOLVE`) instead of asking the system's resolver once per transfer. Set one on
/// ``TransferConfiguration/resolver``; the engine asks it for the first URL's host and for every redirect's.
/// Swap it for another implementation (a recursive one, a fixed table in tests).
public protocol NameResolver: Sendable {
    /// The addresses of `host` (a name, never an IP literal), or why there are none.
    func resolve(_ host: String) async -> Result<ResolvedHost, ResolveFailure>
}

/// A name's addresses, both families (IPv6 first, as libcurl's happy eyeballs starts with the first).
public struct ResolvedHost: Sendable, Equatable {
    public var ipv4: [String]
    public var ipv6: [String]
    public init(ipv4: [String], ipv6: [String]) {
        self.ipv4 = ipv4
        self.ipv6 = ipv6
    }
    public var isEmpty: Bool { ipv4.isEmpty && ipv6.isEmpty }

    /// The `CURLOPT_RESOLVE` line for `host`:`port`: "host:port:[v6],v4".
    func curlResolveEntry(host: String, port: Int) -> String {
        let addresses = ipv6.map { "[\($0)]" } + ipv4
        return "\(host):\(port):" + addresses.joined(separator: ",")
    }
}

/// Why a name has no addresses, by class: the name does not exist, the resolver failed or refused, or it
/// never answered. Each says which resolver answered, so a user can tell a bad name from a bad resolver.
public struct ResolveFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// NXDOMAIN: the name does not exist.
        case nameNotFound
        /// The name exists but has neither an A nor an AAAA record.
        case noAddress
        /// SERVFAIL, REFUSED or another error code from the resolver (its code).
        case serverFailure(code: Int)
        /// No answer after every try, or an answer that could not be read.
        case timedOut
        /// The host is not a name that can be asked (empty labels, too long).
        case invalidName
    }

    public var kind: Kind
    public var host: String
    /// The resolver(s) asked, "127.0.0.53:53".
    public var resolver: String

    public init(_ kind: Kind, host: String, resolver: String) {
        self.kind = kind
        self.host = host
        self.resolver = resolver
    }

    /// Whether asking again later may succeed (a failure or silence, not a definite "no such name").
    public var isTemporary: Bool {
        switch kind {
        case .serverFailure, .timedOut: true
        case .nameNotFound, .noAddress, .invalidName: false
        }
    }

    public var description: String {
        switch kind {
        case .nameNotFound: "DNS: \(host) does not exist (NXDOMAIN from \(resolver))"
        case .noAddress: "DNS: \(host) has no address (no A or AAAA record at \(resolver))"
        case .serverFailure(let code):
            "DNS: \(resolver) failed to resolve \(host) (\(code == 5 ? "REFUSED" : code == 2 ? "SERVFAIL" : "rcode \(code)"))"
        case .timedOut: "DNS: no answer from \(resolver) for \(host)"
        case .invalidName: "DNS: '\(host)' is not a valid host name"
        }
    }
}
