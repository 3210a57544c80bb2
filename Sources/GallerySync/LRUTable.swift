/// A bounded table that drops its least recently used entries: at most `countLimit` entries and, when a
/// cost limit is given, at most `costLimit` as the sum of their costs.
///
/// A dictionary from key to slot plus a doubly linked list threaded through a dense array of slots
/// (indices, not references: no object and no reference counting per entry). Reading with
/// ``value(forKey:)`` and storing make an entry the most recently used; ``peek(_:)`` leaves the order as it
/// is. Every operation is O(1): a removed slot is filled with the last one, so the array stays dense and
/// a value is released as soon as its entry goes. Not synchronised: share one behind a `Locked`.
///
/// Iterating goes from the most to the least recently used entry.
public struct LRUTable<Key: Hashable, Value> {
    @usableFromInline struct Node {
        @usableFromInline var key: Key
        @usableFromInline var previous: Int32 // towards the most recently used; -1 at the head
        @usableFromInline var next: Int32 // towards the least recently used; -1 at the tail
        @usableFromInline var cost: Int
        @usableFromInline var value: Value

        @inlinable init(key: Key, previous: Int32, next: Int32, cost: Int, value: Value) {
            (self.key, self.previous, self.next, self.cost, self.value) = (key, previous, next, cost, value)
        }
    }

    // Inlinable, with its storage usable from inlined code: callers in other modules (the image and
    // weights caches, one lookup and store per photo) get code specialised for their key and value, not
    // generic calls through value witnesses.
    @usableFromInline var slots: [Key: Int32] = [:]
    @usableFromInline var nodes: [Node] = []
    @usableFromInline var head: Int32 = -1
    @usableFromInline var tail: Int32 = -1
    /// The most entries kept.
    public let countLimit: Int
    /// The most the costs of the entries kept may add up to.
    public let costLimit: Int
    /// The sum of the costs of the entries held now.
    public var totalCost: Int { costHeld }
    /// Entries dropped, least recently used first, to keep within the limits.
    public var evictions: Int { evicted }
    @usableFromInline var costHeld = 0
    @usableFromInline var evicted = 0

    /// An empty table. Both limits must not be negative; a count limit of 0 keeps nothing.
    @inlinable public init(countLimit: Int, costLimit: Int = .max) {
        precondition(countLimit >= 0 && costLimit >= 0, "LRUTable: limits must not be negative")
        self.countLimit = countLimit
        self.costLimit = costLimit
    }

    /// The number of entries held now.
    @inlinable public var count: Int { nodes.count }
    @inlinable public var isEmpty: Bool { nodes.isEmpty }

    /// The value for `key`, which becomes the most recently used entry.
    @inlinable public mutating func value(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToFront(slot)
        return nodes[Int(slot)].value
    }

    /// The value for `key`, leaving the order as it is.
    @inlinable public func peek(_ key: Key) -> Value? {
        slots[key].map { nodes[Int($0)].value }
    }

    /// Stores `value` under `key` as the most recently used entry (replacing an older value there), after
    /// dropping the least recently used entries the limits need room from. An entry whose cost alone is
    /// over the cost limit is dropped too, so the table never holds more than its limits. Returns whether
    /// it replaced a value under `key`.
    @discardableResult @inlinable
    public mutating func setValue(_ value: Value, forKey key: Key, cost: Int = 0) -> Bool {
        let cost = Swift.max(cost, 0)
        let existing = slots[key]
        if let slot = existing {
            costHeld += cost - nodes[Int(slot)].cost
            nodes[Int(slot)].cost = cost
            nodes[Int(slot)].value = value
            moveToFront(slot)
        } else {
            while !nodes.isEmpty, nodes.count >= countLimit || costHeld > costLimit - cost { evictTail() }
            precondition(nodes.count < Int32.max, "LRUTable: more than 2^31 - 1 entries")
            let slot = Int32(nodes.count)
            nodes.append(Node(key: key, previous: -1, next: -1, cost: cost, value: value))
            slots[key] = slot
            linkAtFront(slot)
            costHeld += cost
        }
        while nodes.count > countLimit || costHeld > costLimit, tail != -1 { evictTail() }
        return existing != nil
    }

    /// Removes the entry for `key` and returns its value (not counted as an eviction).
    @discardableResult @inlinable
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        return remove(slot: slot).value
    }

    /// Removes every entry (not counted as evictions).
    @inlinable public mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        head = -1
        tail = -1
        costHeld = 0
    }

    @inlinable mutating func evictTail() {
        remove(slot: tail)
        evicted += 1
    }

    /// Unlinks the slot and fills its place with the last node, so that `nodes` stays dense.
    @discardableResult @inlinable
    mutating func remove(slot: Int32) -> Node {
        unlink(slot)
        let removed = nodes[Int(slot)]
        slots[removed.key] = nil
        costHeld -= removed.cost
        let last = Int32(nodes.count - 1)
        if slot != last {
            let moved = nodes[Int(last)]
            nodes[Int(slot)] = moved
            slots[moved.key] = slot
            if moved.previous != -1 { nodes[Int(moved.previous)].next = slot } else { head = slot }
            if moved.next != -1 { nodes[Int(moved.next)].previous = slot } else { tail = slot }
        }
        nodes.removeLast()
        return removed
    }

    @inlinable mutating func moveToFront(_ slot: Int32) {
        guard slot != head else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    @inlinable mutating func linkAtFront(_ slot: Int32) {
        nodes[Int(slot)].previous = -1
        nodes[Int(slot)].next = head
        if head != -1 { nodes[Int(head)].previous = slot }
        head = slot
        if tail == -1 { tail = slot }
    }

    @inlinable mutating func unlink(_ slot: Int32) {
        let previous = nodes[Int(slot)].previous
        let next = nodes[Int(slot)].next
        if previous != -1 { nodes[Int(previous)].next = next } else { head = next }
        if next != -1 { nodes[Int(next)].previous = previous } else { tail = previous }
        nodes[Int(slot)].previous = -1
        nodes[Int(slot)].next = -1
    }
}

extension LRUTable: Sequence {
    /// Walks the list from the most to the least recently used entry; does not change the order.
    public struct Iterator: IteratorProtocol {
        fileprivate let table: LRUTable
        fileprivate var slot: Int32

        public mutating func next() -> (key: Key, value: Value, cost: Int)? {
            guard slot != -1 else { return nil }
            let node = table.nodes[Int(slot)]
            slot = node.next
            return (node.key, node.value, node.cost)
        }
    }

    public func makeIterator() -> Iterator { Iterator(table: self, slot: head) }
    public var underestimatedCount: Int { nodes.count }
}

extension LRUTable: Sendable where Key: Sendable, Value: Sendable {}
extension LRUTable.Node: Sendable where Key: Sendable, Value: Sendable {}
