import GallerySync

/// Filter taps already computed, by (input size, input extent, output size, filter).
///
/// Why: a batch of photos from one camera or site comes in a handful of sizes, and the taps of one
/// axis cost hundreds of `sin` calls per output pixel row; computed once they are reused by every
/// image of the same size (issue 15's profile had the recomputation at a sixth of the scaler).
/// The taps are immutable, so a hit hands out the same object to any number of threads.
///
/// Bounded: past `capacity` entries the least recently used one goes, so a stream of odd sizes
/// keeps memory flat (an entry of a 256 px axis is a few kilobytes).
final class ResampleWeightsCache: Sendable {
    struct Key: Hashable {
        var inputSize: Int
        /// The bits of the extent: two extents that differ at all get their own taps.
        var inputExtent: UInt64
        var outputSize: Int
        var filter: ResampleFilter
    }

    private struct Storage {
        var entries: LRUTable<Key, ResampleWeights>
        var hits = 0
        var misses = 0
    }

    private let storage: Locked<Storage>

    /// The process-wide cache every `Resampler` uses.
    static let shared = ResampleWeightsCache(capacity: 256)

    init(capacity: Int) {
        precondition(capacity > 0)
        storage = Locked(Storage(entries: LRUTable(countLimit: capacity)))
    }

    /// The taps for mapping `inputSize` samples covering `inputExtent` onto `outputSize` with `filter`,
    /// from the cache or computed now (outside the lock, so threads never wait on each other's `sin`).
    /// Finding, using and dropping an entry take constant time (``LRUTable``): most photos of a varied
    /// list have a size of their own, so nearly every photo stores two entries and drops two.
    func weights(inputSize: Int, inputExtent: Double, outputSize: Int, filter: ResampleFilter) -> ResampleWeights {
        let key = Key(inputSize: inputSize, inputExtent: inputExtent.bitPattern, outputSize: outputSize, filter: filter)
        let found: ResampleWeights? = storage.withLock { s in
            guard let weights = s.entries.value(forKey: key) else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            return weights
        }
        if let found { return found }
        let made = ResampleWeights(inputSize: inputSize, inputExtent: inputExtent, outputSize: outputSize, filter: filter)
        // Another thread may have stored the same taps meanwhile: either copy serves.
        storage.withLock { s in _ = s.entries.setValue(made, forKey: key) }
        return made
    }

    /// Lookups answered from the cache and lookups that computed taps, since creation.
    var counts: (hits: Int, misses: Int) { storage.withLock { ($0.hits, $0.misses) } }

    /// Entries held now.
    var count: Int { storage.withLock { $0.entries.count } }
}
