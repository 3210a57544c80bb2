/// Whether a journal holds anything a compaction would drop: a record that a later one replaced (a photo
/// seen again, an original or a thumbnail size recorded twice, a failure that a later success cleared or a
/// later failure replaced), or a line that could not be read. A first run's journal usually holds none:
/// every record still counts, and rewriting it would only regroup the same records photo by photo.
///
/// Noted record by record as the journal index takes them (``JournalIndex/add(_:at:)``), with one byte a
/// photo: which kinds of record the photo has (as ``GalleryState/Entry/apply(_:)`` keeps them).
struct SupersededRecords: Sendable {
    /// Per slot: bit 0 seen, bit 1 original, bit 2 a failure not cleared since, bits 3 to 7 the thumbnail
    /// sizes of `sizes` (in that order).
    private var kinds: [UInt8] = []
    /// Thumbnail sizes in the order first recorded (a run makes one to three); past five, a thumbnail
    /// record counts as replacing one (a compaction then sorts it out).
    private var sizes: [Int] = []
    /// Whether anything has been superseded since the journal was opened or last compacted.
    private(set) var any = false

    /// Bytes held (array capacities).
    var heldBytes: Int { kinds.capacity + sizes.capacity * 8 }

    /// Notes `record`, about the photo in `slot` (a slot new to the index is the next one).
    mutating func note(_ record: JournalRecord, slot: Int) {
        if slot == kinds.count { kinds.append(0) }
        let (seen, original, failed): (UInt8, UInt8, UInt8) = (1, 2, 4)
        var bits = kinds[slot]
        switch record {
        case .seen:
            if bits & seen != 0 { any = true }
            bits |= seen
        case .original:
            // A failure on record is cleared: its line is dropped.
            if bits & (original | failed) != 0 { any = true }
            bits = (bits | original) & ~failed
        case let .thumbnail(_, file):
            if bits & failed != 0 { any = true }
            bits &= ~failed
            if let bit = sizeBit(file.size) {
                if bits & bit != 0 { any = true }
                bits |= bit
            } else {
                any = true
            }
        case .failed:
            if bits & failed != 0 { any = true }
            bits |= failed
        }
        kinds[slot] = bits
    }

    /// Lines that could not be read are dropped by a compaction too.
    mutating func noteUnreadableLines() { any = true }

    /// A compaction has just written every photo's records anew: nothing left to drop.
    mutating func noteCompacted() { any = false }

    private mutating func sizeBit(_ size: Int) -> UInt8? {
        if let i = sizes.firstIndex(of: size) { return 8 << UInt8(i) }
        guard sizes.count < 5 else { return nil }
        sizes.append(size)
        return 8 << UInt8(sizes.count - 1)
    }
}
