/// Counters and occupancy of a ``Cache`` at one instant, read atomically under its lock.
///
/// The counters always add up: `count == insertions - evictions - removals`, and every
/// `value(forKey:)` counts as exactly one hit or one miss.
public struct CacheStatistics: Sendable, Hashable {
    /// Lookups that found a value.
    public var hits = 0
    /// Lookups that found nothing.
    public var misses = 0
    /// Values stored under a key that was not present.
    public var insertions = 0
    /// Values stored under a key that was present (the old value was dropped, not counted as removed).
    public var replacements = 0
    /// Entries dropped, least recently used first, to get back under the cost or count limit.
    public var evictions = 0
    /// Entries dropped by `removeValue(forKey:)`, `removeAll()`, or by an oversized replacement.
    public var removals = 0
    /// Values not stored because their cost exceeded the per-entry limit.
    public var rejections = 0
    /// Sum of the costs of the entries held now.
    public var totalCost = 0
    /// Number of entries held now.
    public var count = 0

    /// All zero.
    public init() {}

    /// Hits as a fraction of all lookups (0 when there were none).
    public var hitRate: Double {
        let lookups = hits + misses
        return lookups == 0 ? 0 : Double(hits) / Double(lookups)
    }
}
