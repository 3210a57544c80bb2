import GallerySync

/// A thread-safe least-recently-used cache with a total-cost limit and a count limit.
///
/// Every operation is O(1) (GallerySync's `LRUTable`) and runs under one lock (`Locked`). Storing an
/// entry makes it the most recently used, and so does reading it; when either limit is exceeded the least
/// recently used entries are evicted until both hold again. An entry whose cost exceeds ``entryCostLimit``
/// (by default a quarter of ``costLimit``) is not stored at all: keeping it would flush most of the cache
/// for one value, which is usually a full-size original that is cheaper to decode again than to hold.
public final class Cache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Maximum sum of entry costs.
    public let costLimit: Int
    /// Maximum number of entries.
    public let countLimit: Int
    /// Maximum cost of a single entry; costlier values are rejected.
    public let entryCostLimit: Int

    /// The entries, and the counters the table does not keep itself.
    private struct State {
        var table: LRUTable<Key, Value>
        var statistics = CacheStatistics()
    }

    private let state: Locked<State>

    /// Creates an empty cache.
    /// - Parameters:
    ///   - costLimit: maximum total cost (for images, bytes).
    ///   - countLimit: maximum number of entries.
    ///   - entryCostFraction: the largest share of `costLimit` one entry may take (default 1/4).
    public init(costLimit: Int, countLimit: Int = .max, entryCostFraction: Double = 0.25) {
        precondition(costLimit >= 0 && countLimit >= 0, "limits must not be negative")
        precondition(entryCostFraction > 0 && entryCostFraction <= 1, "entryCostFraction must be in (0, 1]")
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.entryCostLimit = Int((Double(costLimit) * entryCostFraction).rounded(.down))
        state = Locked(State(table: LRUTable(countLimit: countLimit, costLimit: costLimit)))
    }

    /// The value for `key`, or nil; a found entry becomes the most recently used.
    public func value(forKey key: Key) -> Value? {
        state.withLock { s in
            let value = s.table.value(forKey: key)
            if value == nil { s.statistics.misses += 1 } else { s.statistics.hits += 1 }
            return value
        }
    }

    /// Stores `value` under `key` with the given cost, replacing any older value, then evicts
    /// least recently used entries while a limit is exceeded. See ``entryCostLimit``.
    public func setValue(_ value: Value, forKey key: Key, cost: Int) {
        state.withLock { s in
            // Too costly: not stored, and an older value under the key goes (a lookup never returns stale data).
            guard cost <= entryCostLimit else {
                s.statistics.rejections += 1
                if s.table.removeValue(forKey: key) != nil { s.statistics.removals += 1 }
                return
            }
            if s.table.setValue(value, forKey: key, cost: cost) { s.statistics.replacements += 1 } else { s.statistics.insertions += 1 }
        }
    }

    /// Removes the entry for `key`, returning its value if there was one.
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        state.withLock { s in
            let value = s.table.removeValue(forKey: key)
            if value != nil { s.statistics.removals += 1 }
            return value
        }
    }

    /// Removes every entry (counted as removals); the other counters are kept.
    public func removeAll() {
        state.withLock { s in
            s.statistics.removals += s.table.count
            s.table.removeAll()
        }
    }

    /// A consistent snapshot of the counters and occupancy.
    public var statistics: CacheStatistics {
        state.withLock { s in
            var statistics = s.statistics
            statistics.evictions = s.table.evictions
            statistics.totalCost = s.table.totalCost
            statistics.count = s.table.count
            return statistics
        }
    }

    /// Keys and costs from the most to the least recently used. O(n); for diagnostics and tests.
    /// Does not change the recency order.
    public var entries: [(key: Key, cost: Int)] {
        state.withLock { s in s.table.map { ($0.key, $0.cost) } }
    }
}
