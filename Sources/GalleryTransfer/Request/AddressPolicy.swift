/// Which addresses a request may connect to, checked by the engine on the address each new connection
/// actually goes to (libcurl's CURLOPT_OPENSOCKETFUNCTION, after DNS, for the first request and every
/// redirect), so neither a DNS answer nor a redirect can lead around it. A connection kept alive from an
/// earlier request was checked when it was opened.
///
/// Unspecified (0.0.0.0, ::) and multicast/broadcast addresses are refused under every rule.
public struct AddressPolicy: Sendable, Hashable {
    public enum Rule: Sendable, Hashable {
        /// Any unicast address.
        case anyAddress
        /// Addresses no more private than this class (see `AddressClass.privacy`): with `.publicInternet`
        /// only public addresses, with `.loopback` any.
        case atMostAsPrivateAs(AddressClass)
        /// The URL's own host may be anything; where a redirect leads may be no more private than the class
        /// of the address the first response came from (a named public URL cannot redirect to loopback).
        case atMostAsPrivateAsOrigin
    }

    public var rule: Rule
    /// Why the rule applies and how to lift it, quoted in a refusal
    /// (e.g. "the API host is public; --allow-private-addresses lifts this").
    public var explanation: String

    public init(_ rule: Rule, explanation: String = "") {
        self.rule = rule
        self.explanation = explanation
    }

    /// Any unicast address (the default of requests).
    public static let unrestricted = AddressPolicy(.anyAddress)

    /// Public addresses only: no loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7),
    /// link-local (169.254/16 with the cloud metadata service, fe80::/10), nor their IPv4-mapped IPv6 forms.
    /// For a service that fetches URLs named by its clients.
    public static let publicOnly = AddressPolicy(
        .atMostAsPrivateAs(.publicInternet), explanation: "only public addresses are fetched")

    /// Whether a connection to `address` is refused; `origin` is the class of the address the first
    /// response of this transfer came from, once known (used by `.atMostAsPrivateAsOrigin`).
    public func refusal(for address: IPAddress, origin: AddressClass?) -> AddressRefusal? {
        let kind = address.addressClass
        guard let privacy = kind.privacy else {
            return AddressRefusal(address: address.description, addressClass: kind,
                                  why: "\(kind) addresses are never connected to")
        }
        let ceiling: AddressClass?
        switch rule {
        case .anyAddress: ceiling = nil
        case .atMostAsPrivateAs(let limit): ceiling = limit
        case .atMostAsPrivateAsOrigin: ceiling = origin
        }
        guard let ceiling, let limit = ceiling.privacy, privacy > limit else { return nil }
        let why = explanation.isEmpty ? "only addresses no more private than \(ceiling) are allowed" : explanation
        return AddressRefusal(address: address.description, addressClass: kind, why: why)
    }
}

/// A connection the policy refused: where, what kind of address, and why.
public struct AddressRefusal: Sendable, Hashable, CustomStringConvertible {
    public var address: String
    public var addressClass: AddressClass
    public var why: String

    /// "refused to connect to 127.0.0.1 (loopback): the API host is public; ..."
    public var description: String { "refused to connect to \(address) (\(addressClass)): \(why)" }
}
