import GallerySync
import Testing

/// `LRUTable`: the order it keeps, its two limits, and that its list and dictionary stay one structure
/// through removals that move the last slot into the hole.
@Suite struct LRUTableTests {
    private func keys(_ table: LRUTable<String, Int>) -> [String] { table.map(\.key) }

    @Test func readingAndStoringMakeAnEntryTheNewestPeekingDoesNot() {
        var table = LRUTable<String, Int>(countLimit: 10)
        for (i, key) in ["a", "b", "c", "d"].enumerated() { table.setValue(i, forKey: key) }
        #expect(keys(table) == ["d", "c", "b", "a"], "newest first")
        #expect(table.value(forKey: "b") == 1)
        #expect(keys(table) == ["b", "d", "c", "a"])
        #expect(table.peek("a") == 0)
        #expect(keys(table) == ["b", "d", "c", "a"], "peek leaves the order")
        #expect(table.value(forKey: "zz") == nil && table.peek("zz") == nil)
    }

    @Test func theCountLimitDropsTheLeastRecentlyUsed() {
        var table = LRUTable<String, Int>(countLimit: 3)
        for (i, key) in ["a", "b", "c"].enumerated() { table.setValue(i, forKey: key) }
        _ = table.value(forKey: "a")
        table.setValue(3, forKey: "d")
        #expect(keys(table) == ["d", "a", "c"], "b was the least recently used")
        #expect(table.count == 3 && table.evictions == 1 && table.peek("b") == nil)
        for i in 0..<1000 { table.setValue(i, forKey: "k\(i)") }
        #expect(keys(table) == ["k999", "k998", "k997"] && table.evictions == 1001)
        var none = LRUTable<String, Int>(countLimit: 0)
        none.setValue(1, forKey: "a")
        #expect(none.isEmpty && none.evictions == 1, "a count limit of 0 keeps nothing")
    }

    @Test func theCostLimitDropsAsManyAsItNeeds() {
        var table = LRUTable<String, Int>(countLimit: 100, costLimit: 100)
        for (i, key) in ["a", "b", "c", "d"].enumerated() { table.setValue(i, forKey: key, cost: 25) }
        #expect(table.totalCost == 100 && table.evictions == 0)
        _ = table.value(forKey: "a")
        table.setValue(9, forKey: "e", cost: 60)
        #expect(keys(table) == ["e", "a"], "b, c and d went, oldest first, until 60 fitted")
        #expect(table.totalCost == 85 && table.evictions == 3)
        table.setValue(9, forKey: "a", cost: 50)
        #expect(keys(table) == ["a"] && table.totalCost == 50, "a costlier replacement evicts too")
        table.setValue(1, forKey: "huge", cost: 101)
        #expect(table.isEmpty && table.totalCost == 0, "an entry over the limit alone is not kept")
        table.setValue(1, forKey: "free", cost: -5)
        #expect(table.totalCost == 0 && table.count == 1, "a negative cost counts as 0")
    }

    @Test func reinsertingAKeyReplacesItsValueAndCostAndMakesItTheNewest() {
        var table = LRUTable<String, Int>(countLimit: 3, costLimit: 1000)
        table.setValue(1, forKey: "a", cost: 10)
        table.setValue(2, forKey: "b", cost: 20)
        table.setValue(3, forKey: "c", cost: 30)
        table.setValue(4, forKey: "a", cost: 40)
        #expect(table.map { [$0.key: $0.value] } == [["a": 4], ["c": 3], ["b": 2]])
        #expect(table.count == 3 && table.totalCost == 90 && table.evictions == 0)
        table.setValue(5, forKey: "d")
        #expect(keys(table) == ["d", "a", "c"], "b, not a, was the oldest")
    }

    @Test func removingAnyEntryKeepsTheListAndTheTableInStep() {
        var table = LRUTable<String, Int>(countLimit: 100)
        for i in 0..<10 { table.setValue(i, forKey: "k\(i)", cost: i) }
        // The tail, the head, one in the middle (its slot refilled by the last one), and one not there.
        #expect(table.removeValue(forKey: "k0") == 0)
        #expect(table.removeValue(forKey: "k9") == 9)
        #expect(table.removeValue(forKey: "k4") == 4)
        #expect(table.removeValue(forKey: "k4") == nil)
        #expect(keys(table) == ["k8", "k7", "k6", "k5", "k3", "k2", "k1"])
        #expect(table.count == 7 && table.totalCost == 32 && table.evictions == 0)
        for key in keys(table) { #expect(table.peek(key) == Int(key.dropFirst())) }
        _ = table.value(forKey: "k1")
        table.setValue(10, forKey: "k10")
        #expect(keys(table) == ["k10", "k1", "k8", "k7", "k6", "k5", "k3", "k2"])
        table.removeAll()
        #expect(table.isEmpty && table.totalCost == 0 && keys(table).isEmpty)
        table.setValue(1, forKey: "x")
        #expect(keys(table) == ["x"])
    }

    /// Against a plain array kept in order: thousands of random operations on a small table, so that
    /// every path (evicting, refilling a hole from the head or the tail) runs many times.
    @Test func randomOperationsAgreeWithAnArrayKeptInOrder() {
        var table = LRUTable<Int, Int>(countLimit: 8, costLimit: 40)
        var model: [(key: Int, value: Int, cost: Int)] = []
        var random = SplitMix64(seed: 7)
        for step in 0..<20_000 {
            let key = Int(random.next() % 16), cost = Int(random.next() % 12)
            switch random.next() % 4 {
            case 0:
                let found = model.firstIndex { $0.key == key }
                #expect(table.value(forKey: key) == found.map { model[$0].value })
                if let found { model.insert(model.remove(at: found), at: 0) }
            case 1:
                let removed = model.firstIndex { $0.key == key }.map { model.remove(at: $0).value }
                #expect(table.removeValue(forKey: key) == removed)
            default:
                model.removeAll { $0.key == key }
                model.insert((key, step, cost), at: 0)
                while model.count > 8 || model.reduce(0, { $0 + $1.cost }) > 40 { model.removeLast() }
                table.setValue(step, forKey: key, cost: cost)
            }
            let same = table.map { "\($0.key)=\($0.value)/\($0.cost)" }
                == model.map { "\($0.key)=\($0.value)/\($0.cost)" }
            #expect(same, "step \(step)")
            if !same { return }
        }
    }
}
