import Foundation
import GallerySync

/// What one question (a name and a type) came to, and until when it stands.
enum DNSOutcome: Sendable, Equatable {
    case addresses([String])
    /// The name exists without a record of this type.
    case noData
    /// NXDOMAIN.
    case nameError
    /// SERVFAIL, REFUSED or another error code.
    case serverFailure(Int)
    case timedOut
}

/// How long each kind of outcome is kept. Positive and negative (NXDOMAIN, no data) answers keep their
/// TTL (the SOA's for negative ones, RFC 2308) within [floor, cap]; a batch run uses a floor of 5 minutes,
/// so a name is asked once however many URLs name it. A server failure is kept a shorter time (the
/// resolver may recover), and silence (all three tries unanswered, over 7 s, while the resolver answered
/// the other names) a minute: each URL that asked again would hold its place in the run for those 7 s
/// and ask six more questions (20,000 URLs over 5,000 names, 3% silent, a resolver answering 200 a
/// second: 87 s with silence kept 10 s, the second pass over the hosts waiting on those names; 63 s).
public struct DNSCachePolicy: Sendable {
    public var floor: Double = 300
    public var cap: Double = 86_400
    public var serverFailureSeconds: Double = 30
    public var timeoutSeconds: Double = 60
    /// Questions kept (one per name and type); the least recently used go first.
    public var capacity = 200_000
    public init() {}

    func seconds(for outcome: DNSOutcome, ttl: UInt32) -> Double {
        switch outcome {
        case .addresses, .noData, .nameError: min(cap, max(floor, Double(ttl)))
        case .serverFailure: serverFailureSeconds
        case .timedOut: timeoutSeconds
        }
    }
}

/// A bounded LRU of outcomes by (name, type), on GallerySync's `LRUTable`: per entry a dictionary bucket
/// (key and slot, with the table's slack), a slot in the list's array (key, outcome, expiry, cost, two
/// links), the address array (32 bytes plus 16 an address; IPv4 text fits Swift's inline strings) and the
/// name when longer than 15 bytes. Measured (`Scripts/bench-web-cache`, RSS over 200,000 entries, half of
/// them one IPv4 address): 245 bytes an entry with a short name, 290 with a 40-byte one, so 50-60 MB for
/// the default 200,000, and no more past the bound (51-60 MB over 300,000 and 1,000,000 names): evicting
/// drops the least recently used entry alone, O(1), and copies nothing. A name evicted is simply asked
/// again. An expired entry is a miss, and is dropped then.
struct DNSCache {
    struct Key: Hashable {
        var name: String
        var type: UInt16
    }

    private struct Kept {
        var outcome: DNSOutcome
        var expires: UInt64
    }

    private var table: LRUTable<Key, Kept>
    let capacity: Int
    var evictions: Int { table.evictions }

    init(capacity: Int) {
        self.capacity = max(8, capacity)
        table = LRUTable(countLimit: self.capacity)
    }

    var count: Int { table.count }

    mutating func lookup(_ key: Key, now: UInt64) -> DNSOutcome? {
        guard let kept = table.value(forKey: key) else { return nil }
        guard kept.expires > now else {
            table.removeValue(forKey: key)
            return nil
        }
        return kept.outcome
    }

    mutating func store(_ key: Key, _ outcome: DNSOutcome, seconds: Double, now: UInt64) {
        table.setValue(Kept(outcome: outcome, expires: now + UInt64(seconds * 1e9)), forKey: key)
    }
}
