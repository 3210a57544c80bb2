/// Which photos of a gallery are copies of one another, found from the hashes the journal keeps
/// (nothing is decoded again).
///
/// Photos are taken in listing order. A photo joins the group of the first earlier photo with the same
/// SHA-256; else (in `.near` mode) the group whose first photo is nearest by pHash within
/// ``DuplicateMode/nearThreshold`` (ties to the earlier group); else it starts a group. Comparing with
/// each group's first photo, not its latest, keeps a chain of small changes (a burst of shots) from
/// pulling different pictures into one group. A group shows its largest original (pixels; ties to the
/// first listed).
///
/// Memory while grouping, per finished photo: its id, pHash and an 8-byte prefix of its SHA-256 (24
/// bytes), its pixel count and group (8), the near index (``NearHashIndex``, 32) and the first-photo-
/// with-these-bytes table (about 20): some 85 bytes, 85 MB at a million photos, freed before the
/// gallery is written. The result holds only photos that are in a group of two or more.
public struct DuplicateGrouping: Sendable {
    /// A photo's place in a group of two or more.
    public struct Membership: Sendable, Hashable {
        /// The photo the gallery shows for the group.
        public var shown: Int
        /// Hamming distance between this photo's pHash and the shown one's (0 for the same bytes).
        public var distance: Int
        /// What matched it to the shown photo: `sha256` (same bytes) or `phash` (near duplicate).
        public var hash: String
        /// For the shown photo, the group's photos in listing order (itself among them); empty for the others.
        public var members: [Int]
    }

    /// Photos in groups of two or more, by id.
    public private(set) var groups: [Int: Membership] = [:]

    /// No groups.
    public init() {}

    /// The membership of photo `id`, when it is in a group of two or more.
    public subscript(id: Int) -> Membership? { groups[id] }

    /// Groups the finished entries that `forEach` hands over, in listing order.
    public init<E: Error>(mode: DuplicateMode,
                          forEach: ((GalleryState.Entry) -> Void) throws(E) -> Void) throws(E) {
        guard mode != .off else { return }
        var ids: [Int] = [], shas: [UInt64] = [], hashes: [UInt64] = [], hashed: [Bool] = [], areas: [UInt32] = []
        try forEach { entry in
            guard entry.isComplete, let original = entry.original else { return }
            ids.append(entry.metadata.id)
            shas.append(UInt64(original.sha256.prefix(16), radix: 16) ?? UInt64(truncatingIfNeeded: original.sha256.hashValue))
            hashes.append(original.phash?.bits ?? 0)
            hashed.append(original.phash != nil)
            areas.append(UInt32(clamping: (original.width ?? 0) * (original.height ?? 0)))
        }
        var group = [Int32](repeating: -1, count: ids.count)
        var firstWithSHA: [UInt64: Int32] = [:]
        let index = mode == .near ? NearHashIndex(hashes) : nil
        var grouped = false
        for i in ids.indices {
            if let j = firstWithSHA[shas[i]] {
                group[i] = group[Int(j)]
                grouped = true
                continue
            }
            firstWithSHA[shas[i]] = Int32(i)
            group[i] = Int32(i)
            guard let index, hashed[i] else { continue }
            var best: (position: Int, distance: Int)?
            index.forEach(within: DuplicateMode.nearThreshold, of: hashes[i]) { position, distance in
                guard position < i, hashed[position], group[position] == Int32(position) else { return }
                if best == nil || (distance, position) < (best!.distance, best!.position) { best = (position, distance) }
            }
            if let best {
                group[i] = Int32(best.position)
                grouped = true
            }
        }
        guard grouped else { return }
        var members: [Int32: [Int]] = [:]
        for i in ids.indices where group[i] != Int32(i) {
            members[group[i], default: [Int(group[i])]].append(i)
        }
        for (_, positions) in members {
            let shown = positions.max { (areas[$0], -$0) < (areas[$1], -$1) }!
            for position in positions {
                let sameBytes = shas[position] == shas[shown]
                groups[ids[position]] = Membership(
                    shown: ids[shown], distance: sameBytes ? 0 : (hashes[position] ^ hashes[shown]).nonzeroBitCount,
                    hash: sameBytes ? "sha256" : "phash", members: position == shown ? positions.map { ids[$0] } : [])
            }
        }
    }
}
