import GallerySync
import GalleryImaging
import Testing

@Suite("Cache under concurrent use")
struct CachingConcurrencyTests {
    /// Many tasks hammer a small cache with random gets, puts (random costs, some oversized) and
    /// removes; afterwards every invariant must hold exactly.
    @Test func stressKeepsInvariants() async {
        let costLimit = 500
        let cache = Cache<Int, [Int]>(costLimit: costLimit, countLimit: 20)
        let tasks = 16, operations = 3000
        let gets = await withTaskGroup(of: Int.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(t + 1))
                    var gets = 0
                    for _ in 0..<operations {
                        let key = Int(rng.next() % 40)
                        switch rng.next() % 10 {
                        case 0..<5:
                            gets += 1
                            if let value = cache.value(forKey: key) {
                                // A value is always the one stored for its key, never a torn mix.
                                precondition(value.allSatisfy { $0 == key })
                            }
                        case 5..<9:
                            let cost = Int(rng.next() % 140) // up to 139: some exceed the 125 entry limit
                            cache.setValue([Int](repeating: key, count: 3), forKey: key, cost: cost)
                        default:
                            cache.removeValue(forKey: key)
                        }
                    }
                    return gets
                }
            }
            return await group.reduce(0, +)
        }
        let stats = cache.statistics
        let entries = cache.entries
        #expect(stats.totalCost <= costLimit && stats.count <= 20)
        #expect(stats.totalCost == entries.reduce(0) { $0 + $1.cost })
        #expect(stats.count == entries.count && Set(entries.map(\.key)).count == entries.count)
        #expect(entries.allSatisfy { $0.cost <= cache.entryCostLimit })
        #expect(stats.hits + stats.misses == gets)
        #expect(stats.count == stats.insertions - stats.evictions - stats.removals)
        #expect(stats.evictions > 0 && stats.rejections > 0 && stats.hits > 0)
        for entry in entries { #expect(cache.value(forKey: entry.key) == [entry.key, entry.key, entry.key]) }
    }
}
