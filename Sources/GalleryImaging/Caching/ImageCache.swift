/// The decoded-image cache: a thin facade over ``Cache`` holding ``Bitmap``s, each costing its
/// `byteCount`. Bitmaps are copy-on-write values, so every reader shares the cached storage.
///
/// Use ``shared`` for the process-wide cache, or create independent instances with their own limits.
public final class ImageCache: ImageCaching {
    private let cache: Cache<ImageCacheKey, Bitmap>

    /// The process-wide cache: 256 MiB, at most 1000 bitmaps, one bitmap at most 64 MiB
    /// (a 16 MP RGBA original; anything bigger is cheaper to decode again than to hold).
    public static let shared = ImageCache()

    /// Creates an empty cache.
    /// - Parameters:
    ///   - costLimit: maximum total bytes of pixels held (default 256 MiB).
    ///   - countLimit: maximum number of bitmaps (default 1000).
    ///   - entryCostFraction: the largest share of `costLimit` one bitmap may take (default 1/4).
    public init(costLimit: Int = 256 << 20, countLimit: Int = 1000, entryCostFraction: Double = 0.25) {
        cache = Cache(costLimit: costLimit, countLimit: countLimit, entryCostFraction: entryCostFraction)
    }

    /// The cached bitmap for `key`, or nil. Setting a bitmap stores it; setting nil removes the entry.
    public subscript(key: ImageCacheKey) -> Bitmap? {
        get { cache.value(forKey: key) }
        set {
            if let newValue { put(newValue, forKey: key) } else { remove(key) }
        }
    }

    /// The cached bitmap for `key`, or nil; a hit makes it the most recently used.
    public func get(_ key: ImageCacheKey) -> Bitmap? {
        cache.value(forKey: key)
    }

    /// Stores `bitmap` under `key` (cost: its byte count), evicting least recently used bitmaps
    /// as needed. A bitmap larger than the per-entry limit is not kept.
    public func put(_ bitmap: Bitmap, forKey key: ImageCacheKey) {
        cache.setValue(bitmap, forKey: key, cost: bitmap.byteCount)
    }

    /// Removes the entry for `key`, returning its bitmap if there was one.
    @discardableResult
    public func remove(_ key: ImageCacheKey) -> Bitmap? {
        cache.removeValue(forKey: key)
    }

    /// Drops every entry.
    public func removeAll() {
        cache.removeAll()
    }

    /// Counters and occupancy (cost in bytes).
    public var statistics: CacheStatistics { cache.statistics }

    /// Maximum total bytes held.
    public var costLimit: Int { cache.costLimit }
    /// Maximum number of bitmaps held.
    public var countLimit: Int { cache.countLimit }
    /// Largest single bitmap kept, in bytes.
    public var entryCostLimit: Int { cache.entryCostLimit }
}
