/// Answers "which of these 64-bit hashes are within Hamming distance d of this one" without looking
/// at them all: multi-index hashing (Norouzi, Punjani and Fleet, 2012). Each hash is cut into four
/// 16-bit pieces; two hashes within distance d agree to within floor(d / 4) bits on at least one piece
/// (four pieces cannot all differ in more), so a lookup visits, for each piece, the buckets of every
/// 16-bit value that close to its own (137 buckets at d = 8..11), and checks only the hashes there.
///
/// Built once over a fixed list (positions are list indices) in counting-sort layout: per piece, one
/// array of positions ordered by the piece's value and the start of each value's run. 8 bytes a hash
/// for the hashes, 16 for the four position arrays, and 1 MiB of run starts: 25 MB at a million photos.
struct NearHashIndex {
    static let pieces = 4
    private let hashes: [UInt64]
    /// Per piece: positions ordered by that piece's 16-bit value.
    private var positions: [[UInt32]] = []
    /// Per piece: where each value's run starts in `positions` (65,537 entries, the last is the count).
    private var starts: [[UInt32]] = []

    init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(UInt32.max), "the index holds fewer than 2^32 hashes")
        self.hashes = hashes
        for piece in 0..<Self.pieces {
            var start = [UInt32](repeating: 0, count: 65_537)
            for hash in hashes { start[Int(Self.value(hash, piece)) + 1] += 1 }
            for v in 0..<65_536 { start[v + 1] += start[v] }
            var next = start
            var ordered = [UInt32](repeating: 0, count: hashes.count)
            for (position, hash) in hashes.enumerated() {
                let v = Int(Self.value(hash, piece))
                ordered[Int(next[v])] = UInt32(position)
                next[v] += 1
            }
            positions.append(ordered)
            starts.append(start)
        }
    }

    var count: Int { hashes.count }

    /// Bytes held by the index.
    var byteCount: Int { hashes.count * 8 + positions.reduce(0) { $0 + $1.count * 4 } + starts.reduce(0) { $0 + $1.count * 4 } }

    static func value(_ hash: UInt64, _ piece: Int) -> UInt16 { UInt16(truncatingIfNeeded: hash >> UInt64(16 * piece)) }

    /// Calls `body(position, distance)` for every hash within `radius` of `hash` (each once), in no
    /// particular order.
    func forEach(within radius: Int, of hash: UInt64, _ body: (Int, Int) -> Void) {
        let pieceRadius = radius / Self.pieces
        // A hash close on two pieces would be met twice: it is reported at the first piece where it is
        // close enough, and skipped on later ones.
        for piece in 0..<Self.pieces {
            let own = Self.value(hash, piece)
            Self.forEachValue(near: own, radius: pieceRadius) { value in
                let run = Int(starts[piece][Int(value)])..<Int(starts[piece][Int(value) + 1])
                for slot in run {
                    let position = Int(positions[piece][slot])
                    let other = hashes[position]
                    let distance = (other ^ hash).nonzeroBitCount
                    guard distance <= radius else { continue }
                    var earlier = false
                    for before in 0..<piece where (Self.value(other, before) ^ Self.value(hash, before)).nonzeroBitCount <= pieceRadius {
                        earlier = true
                    }
                    if !earlier { body(position, distance) }
                }
            }
        }
    }

    /// Every 16-bit value within `radius` bits of `value`, `value` first.
    static func forEachValue(near value: UInt16, radius: Int, _ body: (UInt16) -> Void) {
        func flip(from bit: Int, left: Int, _ current: UInt16) {
            body(current)
            guard left > 0 else { return }
            for b in bit..<16 { flip(from: b + 1, left: left - 1, current ^ (1 << UInt16(b))) }
        }
        flip(from: 0, left: radius, value)
    }
}
