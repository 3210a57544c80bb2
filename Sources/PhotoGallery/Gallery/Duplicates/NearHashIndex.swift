/// Answers "which of these 64-bit hashes are within Hamming distance d of this one" without looking
/// at them all: multi-index hashing over four 16-bit pieces (see ``HashPieces``). A lookup within 10
/// bits visits 3 x 137 + 17 buckets of about n / 65,536 hashes each.
///
/// Built once over a fixed list (positions are list indices). Per piece, a table of the hashes sorted by
/// that piece, then by the rest: the start of each piece value's bucket (65,537 a table), and beside each
/// slot only the other 48 bits (6 bytes; the piece is the bucket's), so a bucket's candidates are
/// checked on all 64 bits reading one run of memory, with no cache miss a candidate. Piece 0's table
/// also maps each slot to its position (4 bytes); a hash found through another piece is turned into
/// its positions there. 28 bytes a hash and 1 MiB of bucket starts: 29.0 MB at a million hashes.
public struct NearHashIndex: Sendable {
    /// Table after table: 6 bytes a slot (the key's low 48 bits, little-endian), 2 bytes of padding
    /// at the end so that a slot can be read as 8 bytes.
    private var rests: [UInt8] = []
    /// Table after table: where each piece value's bucket starts (65,537 a table, the last is the count).
    private var starts: [UInt32] = []
    /// Piece 0's slot to position.
    private var positions: [UInt32] = []
    /// Hashes indexed.
    public let count: Int

    /// Indexes `hashes`; a lookup reports their positions in this list.
    public init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(UInt32.max), "the index holds fewer than 2^32 hashes")
        count = hashes.count
        rests = [UInt8](repeating: 0, count: HashPieces.count * 6 * count + 2)
        starts = [UInt32](repeating: 0, count: HashPieces.count * 65_537)
        for piece in 0..<HashPieces.count {
            var keys = hashes.map { HashPieces.key($0, piece) }
            if piece == 0 {
                positions = (0..<UInt32(count)).map { $0 }
                ParallelSort.sort(&keys, &positions)
            } else {
                keys.sort()
            }
            let base = piece * 65_537
            for key in keys { starts[base + Int(key >> 48) + 1] += 1 }
            for v in 0..<65_536 { starts[base + v + 1] += starts[base + v] }
            rests.withUnsafeMutableBytes { rests in
                for (slot, key) in keys.enumerated() {
                    let offset = (piece * count + slot) * 6
                    rests.storeBytes(of: UInt32(truncatingIfNeeded: key).littleEndian, toByteOffset: offset, as: UInt32.self)
                    rests.storeBytes(of: UInt16(truncatingIfNeeded: key >> 32).littleEndian, toByteOffset: offset + 4, as: UInt16.self)
                }
            }
        }
    }

    /// Bytes held by the index.
    public var byteCount: Int { rests.count + starts.count * 4 + positions.count * 4 }

    /// Calls `body(position, distance)` for every hash within `radius` of `hash` (each once), in no
    /// particular order.
    public func forEach(within radius: Int, of hash: UInt64, _ body: (Int, Int) -> Void) {
        let radii = HashPieces.radii(radius)
        let count = count
        rests.withUnsafeBytes { rests in
            starts.withUnsafeBufferPointer { starts in
                positions.withUnsafeBufferPointer { positions in
                    let bytes = rests.baseAddress!
                    @inline(__always) func rest(_ piece: Int, _ slot: Int) -> UInt64 {
                        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: (piece * count + slot) * 6, as: UInt64.self)) & 0xFFFF_FFFF_FFFF
                    }
                    /// Reports the hash in `slot` of `piece`'s table, with every other position it has.
                    func report(_ piece: Int, _ value: Int, _ slot: Int, first: Int) {
                        let other = rest(piece, slot)
                        // Equal hashes sit side by side: the first of them reports them all.
                        guard slot == first || rest(piece, slot - 1) != other else { return }
                        let found = HashPieces.hash(UInt64(value) << 48 | other, piece)
                        guard !HashPieces.foundEarlier(found ^ hash, before: piece, radii: radii) else { return }
                        // Its slots in piece 0's table: the run of its rest in its bucket there.
                        let key0 = HashPieces.key(found, 0), rest0 = key0 & 0xFFFF_FFFF_FFFF
                        var low = Int(starts[Int(key0 >> 48)])
                        let end = Int(starts[Int(key0 >> 48) + 1])
                        var high = end
                        while low < high {
                            let middle = (low + high) / 2
                            if rest(0, middle) < rest0 { low = middle + 1 } else { high = middle }
                        }
                        let distance = (found ^ hash).nonzeroBitCount
                        while low < end, rest(0, low) == rest0 {
                            body(Int(positions[low]), distance)
                            low += 1
                        }
                    }
                    for piece in 0..<HashPieces.count where radii[piece] >= 0 {
                        let key = HashPieces.key(hash, piece)
                        let own = Int(key >> 48), ownRest = key & 0xFFFF_FFFF_FFFF, base = piece * 65_537
                        let table = bytes + piece * count * 6
                        for mask in HashPieces.masks(radii[piece]) {
                            let value = own ^ Int(mask), budget = radius - mask.nonzeroBitCount
                            let first = Int(starts[base + value]), end = Int(starts[base + value + 1])
                            var slot = first
                            while slot < end {
                                let other = UInt64(littleEndian: table.loadUnaligned(fromByteOffset: slot * 6, as: UInt64.self))
                                if ((other ^ ownRest) & 0xFFFF_FFFF_FFFF).nonzeroBitCount <= budget {
                                    report(piece, value, slot, first: first)
                                }
                                slot += 1
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every 16-bit value within `radius` bits of `value`, `value` first.
    static func forEachValue(near value: UInt16, radius: Int, _ body: (UInt16) -> Void) {
        HashPieces.forEachValue(near: value, radius: radius, body)
    }
}
