import Foundation

/// The W3C TDM Reservation Protocol (TDMRep, Community Group final report): whether the rightsholder
/// reserves text-and-data-mining rights (the EU DSM directive's Art. 4 opt-out) for a resource.
///
/// - The `tdm-reservation` response header: `1` reserved, `0` not reserved, anything else unset.
/// - The origin's `/.well-known/tdmrep.json`: an array of `{"location": PATTERN, "tdm-reservation": 0|1,
///   "tdm-policy": URL}`; patterns as robots.txt writes paths (`*`, `$`), case-sensitive; the first rule
///   whose location matches decides, no match is unset. A header supersedes the file.
public struct TDMRep: Sendable {
    public struct Rule: Sendable, Hashable {
        public var location: PathPattern
        public var reserved: Bool
        public var policy: String?
    }

    public var rules: [Rule]

    /// No rules: every path unset (a missing file, or one that could not be read).
    public static let none = TDMRep(rules: [])

    public init(rules: [Rule]) { self.rules = rules }

    /// Reads a tdmrep.json file. A file that is not a JSON array of rule objects is an error naming what
    /// is wrong; a rule without a location or with a reservation other than 0 or 1 is skipped.
    public init(parsing bytes: [UInt8]) throws(TDMRepError) {
        let entries: [Entry]
        do { entries = try JSONDecoder().decode([Entry].self, from: Data(bytes)) }
        catch {
            let isJSON = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            throw TDMRepError(reason: isJSON ? "not a JSON array of rules" : "not JSON (\(bytes.count) bytes)")
        }
        rules = entries.compactMap { entry in
            guard let location = entry.location, let reserved = entry.reserved else { return nil }
            return Rule(location: PathPattern(location), reserved: reserved, policy: entry.policy)
        }
    }

    /// One element of the array, read leniently: anything unreadable leaves its field nil (the rule is skipped).
    struct Entry: Decodable {
        var location: String?
        var reserved: Bool?
        var policy: String?

        enum Key: String, CodingKey { case location, reservation = "tdm-reservation", policy = "tdm-policy" }

        init(from decoder: any Decoder) throws {
            guard let c = try? decoder.container(keyedBy: Key.self) else { return }
            location = (try? c.decode(String.self, forKey: .location)).flatMap { $0.hasPrefix("/") || $0.hasPrefix("*") ? $0 : nil }
            policy = try? c.decode(String.self, forKey: .policy)
            if let n = try? c.decode(Int.self, forKey: .reservation), n == 0 || n == 1, (try? c.decode(Bool.self, forKey: .reservation)) == nil {
                reserved = n == 1
            } else if let text = try? c.decode(String.self, forKey: .reservation), text == "0" || text == "1" {
                reserved = text == "1"
            }
        }
    }

    /// The first rule whose location matches `path`, or nil (unset).
    public func rule(for path: String) -> Rule? { rules.first { $0.location.matches(path) } }

    /// The reservation a `tdm-reservation` header value states: true (`1`), false (`0`), nil (other).
    public static func headerReservation(_ value: String) -> Bool? {
        switch value.trimmingSpaces() { case "1": return true; case "0": return false; default: return nil }
    }
}

/// A tdmrep.json that could not be read.
public struct TDMRepError: Error, Sendable, Equatable {
    public var reason: String
}

