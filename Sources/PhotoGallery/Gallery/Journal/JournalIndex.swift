import Foundation
import Glibc

/// Where one record, or a run of adjacent records of one photo, lives in the journal file: the offset
/// of its first line and the length up to the end of its last line (newlines between lines included,
/// the final newline excluded).
struct RecordRef: Sendable, Hashable {
    var offset: Int64
    var length: Int32
}

/// What the journal keeps in memory instead of the state itself: the photo ids in first-seen order
/// and, for each, the listing page and where its records are in the file. An entry is read back from
/// the file when it is needed (``Journal/entry(of:)``, the writers at the end of a run).
///
/// Laid out as a few flat arrays, not an object per photo, so that a worker's memory stays near flat
/// in the number of photos: per photo 8 bytes of id, 4 of page, 4 of list head, about 12 of hash
/// table, and 16 per run of adjacent records. Records of one photo written one after another (all of
/// them after a compaction, which writes each photo's records together) are one run: a compacted
/// journal costs about 44 bytes a photo, 4.4 MB at 100,000 (an object per photo cost about 200).
struct JournalIndex: Sendable {
    /// One run of adjacent records of a photo, and the photo's previous run (-1: none).
    struct Run: Sendable {
        var ref: RecordRef
        var previous: Int32
    }

    /// Photo ids by slot: a photo's slot is its position in first-seen order.
    private(set) var order: [Int] = []
    /// The listing page of each slot's latest `seen` record (0 when unknown).
    private var pages: [Int32] = []
    /// Each slot's latest run in `runs`; older ones follow `previous`.
    private var heads: [Int32] = []
    private var runs: [Run] = []
    private var table = SlotTable()
    /// What a compaction would drop (``SupersededRecords``).
    private(set) var superseded = SupersededRecords()

    var count: Int { order.count }

    /// The slot of photo `id`, or nil when the journal has no record of it.
    func slot(of id: Int) -> Int? { table.find(id, in: order) }

    /// Notes `record`, written at `ref`.
    mutating func add(_ record: JournalRecord, at ref: RecordRef) {
        let id = record.photoID
        let slot: Int
        if let found = self.slot(of: id) {
            slot = found
        } else {
            slot = order.count
            order.append(id)
            pages.append(0)
            heads.append(-1)
            table.insertLast(of: order)
        }
        if case let .seen(metadata) = record { pages[slot] = Int32(clamping: metadata.page ?? 0) }
        superseded.note(record, slot: slot)
        append(ref, toSlot: slot)
    }

    /// Where slot `slot`'s records are, in file order. Replaying them in order gives its entry.
    func refs(ofSlot slot: Int) -> [RecordRef] {
        var refs: [RecordRef] = []
        var run = heads[slot]
        while run >= 0 {
            refs.append(runs[Int(run)].ref)
            run = runs[Int(run)].previous
        }
        return refs.reversed()
    }

    /// Slots in first-seen order, or stably sorted by listing page.
    func slots(byPage: Bool) -> [Int32] {
        var slots = Array(0..<Int32(order.count))
        if byPage { slots.sort { (pages[Int($0)], $0) < (pages[Int($1)], $1) } }
        return slots
    }

    /// Replaces where every photo's records are (after compaction, which keeps slots and pages):
    /// `refs[slot]` is the one run slot `slot` now has.
    mutating func replaceRuns(with refs: [RecordRef]) {
        precondition(refs.count == order.count, "one run per photo")
        runs = refs.map { Run(ref: $0, previous: -1) }
        heads = Array(0..<Int32(refs.count))
        superseded.noteCompacted()
    }

    /// Lines of the file that could not be read (a torn line, a newer version's record).
    mutating func noteUnreadableLines() { superseded.noteUnreadableLines() }

    /// Bytes the index holds (array capacities): what a test measures against the photo count.
    var heldBytes: Int {
        order.capacity * 8 + pages.capacity * 4 + heads.capacity * 4
            + runs.capacity * MemoryLayout<Run>.stride + table.heldBytes + superseded.heldBytes
    }

    /// Extends the slot's latest run when `ref` starts right after it, else starts a new run.
    private mutating func append(_ ref: RecordRef, toSlot slot: Int) {
        let head = heads[slot]
        if head >= 0 {
            let last = runs[Int(head)].ref
            let end = last.offset + Int64(last.length)
            if ref.offset == end + 1, Int64(last.length) + 1 + Int64(ref.length) <= Int64(Int32.max) {
                runs[Int(head)].ref.length = Int32(ref.offset + Int64(ref.length) - last.offset)
                return
            }
        }
        runs.append(Run(ref: ref, previous: head))
        heads[slot] = Int32(runs.count - 1)
    }
}

/// An open-addressing hash table from photo id to slot that stores only slots (4 bytes a bucket, at
/// most half full); the id of a slot is read from the index's `order`, whose every slot it holds.
struct SlotTable: Sendable {
    private var buckets: [Int32] = []

    var heldBytes: Int { buckets.capacity * 4 }

    func find(_ id: Int, in order: [Int]) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var i = Self.hash(id) & mask
        while true {
            let slot = buckets[i]
            if slot < 0 { return nil }
            if order[Int(slot)] == id { return Int(slot) }
            i = (i + 1) & mask
        }
    }

    /// Adds the last slot of `order` (just appended, its id not yet in the table); the others are in it.
    mutating func insertLast(of order: [Int]) {
        if order.count * 2 > buckets.count {
            // Twice as many buckets, every slot placed again (the new one with them).
            buckets = [Int32](repeating: -1, count: max(16, buckets.count * 2))
            for (slot, id) in order.enumerated() { place(Int32(slot), id: id) }
        } else {
            place(Int32(order.count - 1), id: order[order.count - 1])
        }
    }

    private mutating func place(_ slot: Int32, id: Int) {
        let mask = buckets.count - 1
        var i = Self.hash(id) & mask
        while buckets[i] >= 0 { i = (i + 1) & mask }
        buckets[i] = slot
    }

    /// Fibonacci hashing: ids are often sequential, which linear probing alone would cluster.
    private static func hash(_ id: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(id)) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}
