/// The unsynchronised core of ``Cache``: a dictionary from key to slot plus a doubly linked list
/// threaded through an array of slots (indices, not references, so no per-entry object and no
/// reference counting of nodes). All operations are O(1); `Cache` wraps it in a lock (`Locked`).
struct LRUList<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value?
        var cost: Int
        var previous: Int // towards the most recently used; -1 at the head
        var next: Int // towards the least recently used; -1 at the tail
    }

    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var freeSlots: [Int] = []
    private var head = -1
    private var tail = -1
    private(set) var statistics = CacheStatistics()

    /// The value for `key`, which becomes the most recently used; counts a hit or a miss.
    mutating func value(forKey key: Key) -> Value? {
        guard let slot = slots[key] else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        moveToFront(slot)
        return nodes[slot].value
    }

    /// Stores `value` as the most recently used entry, then evicts from the tail until the
    /// limits hold. A value costing more than `entryCostLimit` is not stored, and any older value
    /// under the same key is removed, so a lookup never returns stale data.
    mutating func setValue(_ value: Value, forKey key: Key, cost: Int,
                           costLimit: Int, countLimit: Int, entryCostLimit: Int) {
        let cost = max(cost, 0)
        if cost > entryCostLimit {
            statistics.rejections += 1
            removeValue(forKey: key)
            return
        }
        if let slot = slots[key] {
            statistics.totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            statistics.replacements += 1
            moveToFront(slot)
        } else {
            let node = Node(key: key, value: value, cost: cost, previous: -1, next: -1)
            let slot: Int
            if let reused = freeSlots.popLast() {
                slot = reused
                nodes[slot] = node
            } else {
                slot = nodes.count
                nodes.append(node)
            }
            slots[key] = slot
            linkAtFront(slot)
            statistics.totalCost += cost
            statistics.count += 1
            statistics.insertions += 1
        }
        while statistics.totalCost > costLimit || statistics.count > countLimit, tail != -1 {
            // The entry just stored is at the head and fits the cost limit alone, so only a count
            // limit of 0 ever evicts it.
            remove(slot: tail)
            statistics.evictions += 1
        }
    }

    /// Removes and returns the value for `key`, counted as a removal.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        let value = nodes[slot].value
        remove(slot: slot)
        statistics.removals += 1
        return value
    }

    /// Drops every entry, each counted as a removal.
    mutating func removeAll() {
        statistics.removals += statistics.count
        slots.removeAll()
        nodes.removeAll()
        freeSlots.removeAll()
        head = -1
        tail = -1
        statistics.totalCost = 0
        statistics.count = 0
    }

    /// Keys and costs from the most to the least recently used, walking the list itself.
    var entries: [(key: Key, cost: Int)] {
        var result: [(key: Key, cost: Int)] = []
        result.reserveCapacity(statistics.count)
        var slot = head
        while slot != -1 {
            result.append((nodes[slot].key, nodes[slot].cost))
            slot = nodes[slot].next
        }
        return result
    }

    private mutating func remove(slot: Int) {
        unlink(slot)
        slots[nodes[slot].key] = nil
        statistics.totalCost -= nodes[slot].cost
        statistics.count -= 1
        nodes[slot].value = nil // release the value now, not when the slot is reused
        freeSlots.append(slot)
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int) {
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head != -1 { nodes[head].previous = slot }
        head = slot
        if tail == -1 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous != -1 { nodes[previous].next = next } else { head = next }
        if next != -1 { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }
}
