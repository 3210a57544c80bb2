import GallerySync

/// A thread-safe least-recently-used cache with a total-cost limit and a count limit.
///
/// Every operation is O(1) and runs under one lock (`Locked`). Storing an entry makes it the most recently
/// used, and so does reading it; when either limit is exceeded the least recently used entries are
/// evicted until both hold again. An entry whose cost exceeds ``entryCostLimit`` (by default a
/// quarter of ``costLimit``) is not stored at all: keeping it would flush most of the cache for one
/// value, which is usually a full-size original that is cheaper to decode again than to hold.
public final class Cache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Maximum sum of entry costs.
    public let costLimit: Int
    /// Maximum number of entries.
    public let countLimit: Int
    /// Maximum cost of a single entry; costlier values are rejected.
    public let entryCostLimit: Int

    private let list = Locked(LRUList<Key, Value>())

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
    }

    /// The value for `key`, or nil; a found entry becomes the most recently used.
    public func value(forKey key: Key) -> Value? {
        list.withLock { $0.value(forKey: key) }
    }

    /// Stores `value` under `key` with the given cost, replacing any older value, then evicts
    /// least recently used entries while a limit is exceeded. See ``entryCostLimit``.
    public func setValue(_ value: Value, forKey key: Key, cost: Int) {
        list.withLock {
            $0.setValue(value, forKey: key, cost: cost, costLimit: costLimit,
                        countLimit: countLimit, entryCostLimit: entryCostLimit)
        }
    }

    /// Removes the entry for `key`, returning its value if there was one.
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        list.withLock { $0.removeValue(forKey: key) }
    }

    /// Removes every entry (counted as removals); the other counters are kept.
    public func removeAll() {
        list.withLock { $0.removeAll() }
    }

    /// A consistent snapshot of the counters and occupancy.
    public var statistics: CacheStatistics {
        list.withLock { $0.statistics }
    }

    /// Keys and costs from the most to the least recently used. O(n); for diagnostics and tests.
    /// Does not change the recency order.
    public var entries: [(key: Key, cost: Int)] {
        list.withLock { $0.entries }
    }
}
