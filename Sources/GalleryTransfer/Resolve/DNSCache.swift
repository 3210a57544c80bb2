import Foundation

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

/// A bounded LRU of outcomes by (name, type): the dictionary slot (key, outcome, expiry, last use, with
/// the table's slack), the address array (32 bytes plus 16 an address; IPv4 text fits Swift's inline
/// strings) and the name when longer than 15 bytes. Measured (RSS over 100,000 entries of one IPv4
/// address): 216 bytes an entry with a short name, 314 with a 40-byte one; 200,000 entries (the default)
/// are so 45-65 MB at most. Eviction drops the oldest eighth at once, so inserting stays O(log n)
/// amortised; a name evicted is simply asked again.
struct DNSCache {
    struct Key: Hashable {
        var name: String
        var type: UInt16
    }

    private struct Slot {
        var outcome: DNSOutcome
        var expires: UInt64
        var used: UInt64
    }

    private var slots: [Key: Slot] = [:]
    private var tick: UInt64 = 0
    let capacity: Int
    private(set) var evictions = 0

    init(capacity: Int) { self.capacity = max(8, capacity) }

    var count: Int { slots.count }

    mutating func lookup(_ key: Key, now: UInt64) -> DNSOutcome? {
        guard var slot = slots[key] else { return nil }
        guard slot.expires > now else {
            slots[key] = nil
            return nil
        }
        tick += 1
        slot.used = tick
        slots[key] = slot
        return slot.outcome
    }

    mutating func store(_ key: Key, _ outcome: DNSOutcome, seconds: Double, now: UInt64) {
        tick += 1
        slots[key] = Slot(outcome: outcome, expires: now + UInt64(seconds * 1e9), used: tick)
        if slots.count > capacity { evictOldest() }
    }

    private mutating func evictOldest() {
        let drop = max(1, capacity / 8)
        let oldest = slots.map { ($0.key, $0.value.used) }.sorted { $0.1 < $1.1 }.prefix(drop)
        for (key, _) in oldest { slots[key] = nil }
        evictions += oldest.count
    }
}
