import GalleryImaging
import Testing

@Suite("Cache (LRU, cost and count limits)")
struct CachingLRUTests {
    @Test func evictsLeastRecentlyUsedAndTouchingSaves() {
        let cache = Cache<String, Int>(costLimit: 100, countLimit: 3, entryCostFraction: 1)
        cache.setValue(1, forKey: "a", cost: 1)
        cache.setValue(2, forKey: "b", cost: 1)
        cache.setValue(3, forKey: "c", cost: 1)
        #expect(cache.value(forKey: "a") == 1) // a is now the most recent: b is the oldest
        cache.setValue(4, forKey: "d", cost: 1)
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.entries.map(\.key) == ["d", "a", "c"])
        cache.setValue(5, forKey: "e", cost: 1)
        #expect(cache.entries.map(\.key) == ["e", "d", "a"])
        let stats = cache.statistics
        #expect(stats.evictions == 2 && stats.count == 3 && stats.hits == 1 && stats.misses == 1)
    }

    @Test func costAccountingThroughPutsReplacementsAndRemoves() {
        let cache = Cache<Int, String>(costLimit: 1000)
        cache.setValue("x", forKey: 1, cost: 100)
        cache.setValue("y", forKey: 2, cost: 200)
        #expect(cache.statistics.totalCost == 300)
        cache.setValue("x2", forKey: 1, cost: 50) // replacement: cost 100 -> 50
        #expect(cache.statistics.totalCost == 250 && cache.statistics.count == 2)
        #expect(cache.value(forKey: 1) == "x2")
        #expect(cache.removeValue(forKey: 2) == "y")
        #expect(cache.removeValue(forKey: 2) == nil)
        #expect(cache.statistics.totalCost == 50 && cache.statistics.count == 1)
        cache.setValue("z", forKey: 3, cost: 0)
        cache.removeAll()
        let stats = cache.statistics
        #expect(stats.totalCost == 0 && stats.count == 0 && cache.entries.isEmpty)
        #expect(stats.insertions == 3 && stats.replacements == 1 && stats.removals == 3 && stats.evictions == 0)
        #expect(cache.value(forKey: 1) == nil)
    }

    @Test func costLimitEvictsAsManyAsNeeded() {
        let cache = Cache<Int, Int>(costLimit: 100, entryCostFraction: 0.5)
        for i in 0..<10 { cache.setValue(i, forKey: i, cost: 10) }
        #expect(cache.statistics.totalCost == 100 && cache.statistics.count == 10)
        cache.setValue(99, forKey: 99, cost: 45) // must push out the five oldest (0...4)
        #expect(cache.entries.map(\.key) == [99, 9, 8, 7, 6, 5])
        #expect(cache.statistics.totalCost == 95 && cache.statistics.evictions == 5)
        // Growing an existing entry evicts others, never the entry itself.
        cache.setValue(5, forKey: 5, cost: 50)
        #expect(cache.entries.map(\.key) == [5, 99])
        #expect(cache.statistics.totalCost == 95)
    }

    @Test func countLimitHolds() {
        let cache = Cache<Int, Int>(costLimit: .max, countLimit: 5)
        for i in 0..<50 { cache.setValue(i, forKey: i, cost: 1) }
        #expect(cache.statistics.count == 5 && cache.statistics.evictions == 45)
        #expect(cache.entries.map(\.key) == [49, 48, 47, 46, 45])
    }

    @Test func oversizedEntryIsNotKeptAndDropsAStaleValue() {
        let cache = Cache<String, Int>(costLimit: 1000) // default fraction 1/4: at most 250 per entry
        #expect(cache.entryCostLimit == 250)
        cache.setValue(1, forKey: "small", cost: 100)
        cache.setValue(2, forKey: "edge", cost: 250)
        cache.setValue(3, forKey: "huge", cost: 251)
        #expect(cache.value(forKey: "huge") == nil)
        #expect(cache.value(forKey: "small") == 1 && cache.value(forKey: "edge") == 2)
        // Replacing with an oversized value must not leave the old one to be served.
        cache.setValue(4, forKey: "small", cost: 900)
        #expect(cache.value(forKey: "small") == nil)
        let stats = cache.statistics
        #expect(stats.rejections == 2 && stats.removals == 1 && stats.totalCost == 250 && stats.count == 1)
    }

    @Test func zeroLimitsKeepNothing() {
        let cache = Cache<Int, Int>(costLimit: 0)
        cache.setValue(1, forKey: 1, cost: 0) // cost 0 fits a 0 limit: kept
        #expect(cache.value(forKey: 1) == 1)
        let noCount = Cache<Int, Int>(costLimit: 100, countLimit: 0)
        noCount.setValue(1, forKey: 1, cost: 1)
        #expect(noCount.value(forKey: 1) == nil && noCount.statistics.count == 0)
    }
}
