/// Answers "which of these 64-bit hashes are within Hamming distance d of this one" without looking
/// at them all: multi-index hashing (Norouzi, Punjani and Fleet, 2012). Each hash is cut into four
/// 16-bit pieces; two hashes within distance d agree to within floor(d / 4) bits on at least one piece
/// (four pieces cannot all differ in more), so a lookup visits, for each piece, the buckets of every
/// 16-bit value that close to its own (137 buckets at d = 8..11), and checks only the hashes there.
///
/// Built once over a fixed list (positions are list indices) in counting-sort layout: per piece, the
/// positions ordered by the piece's value, the start of each value's run, and beside each position the
/// hash's next piece, so most candidates are dismissed on 32 of their bits without reading the hash
/// itself (a cache miss each: at a million photos, 290 us a lookup without this filter, 40 with it).
/// 8 bytes a hash for the hashes, 16 for the positions, 8 for the next pieces, 1 MiB of run starts:
/// 33 MB (31.5 MiB) at a million photos.
public struct NearHashIndex: Sendable {
    static let pieces = 4
    private let hashes: [UInt64]
    /// Piece after piece: positions ordered by that piece's 16-bit value.
    private var positions: [UInt32] = []
    /// Beside each of `positions`: the hash's next piece (piece 0's for the last).
    private var nextPieces: [UInt16] = []
    /// Piece after piece: where each value's run starts in its piece's part of `positions` (65,537 a
    /// piece, the last is the count).
    private var starts: [UInt32] = []

    /// Indexes `hashes`; a lookup reports their positions in this list.
    public init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(UInt32.max), "the index holds fewer than 2^32 hashes")
        self.hashes = hashes
        positions = [UInt32](repeating: 0, count: Self.pieces * hashes.count)
        nextPieces = [UInt16](repeating: 0, count: Self.pieces * hashes.count)
        starts = [UInt32](repeating: 0, count: Self.pieces * 65_537)
        for piece in 0..<Self.pieces {
            let base = piece * 65_537
            for hash in hashes { starts[base + Int(Self.value(hash, piece)) + 1] += 1 }
            for v in 0..<65_536 { starts[base + v + 1] += starts[base + v] }
            var next = Array(starts[base..<base + 65_536])
            for (position, hash) in hashes.enumerated() {
                let v = Int(Self.value(hash, piece))
                positions[piece * hashes.count + Int(next[v])] = UInt32(position)
                nextPieces[piece * hashes.count + Int(next[v])] = Self.value(hash, (piece + 1) % Self.pieces)
                next[v] += 1
            }
        }
    }

    /// Hashes indexed.
    public var count: Int { hashes.count }

    /// Bytes held by the index.
    public var byteCount: Int { hashes.count * 8 + positions.count * 4 + nextPieces.count * 2 + starts.count * 4 }

    static func value(_ hash: UInt64, _ piece: Int) -> UInt16 { UInt16(truncatingIfNeeded: hash >> UInt64(16 * piece)) }

    /// Calls `body(position, distance)` for every hash within `radius` of `hash` (each once), in no
    /// particular order.
    public func forEach(within radius: Int, of hash: UInt64, _ body: (Int, Int) -> Void) {
        let pieceRadius = radius / Self.pieces
        let masks = pieceRadius < Self.masks.count ? Self.masks[pieceRadius] : Self.flips(radius: pieceRadius)
        let count = hashes.count
        hashes.withUnsafeBufferPointer { hashes in
            positions.withUnsafeBufferPointer { positions in
              nextPieces.withUnsafeBufferPointer { nextPieces in
                starts.withUnsafeBufferPointer { starts in
                    for piece in 0..<Self.pieces {
                        let own = Self.value(hash, piece), following = Self.value(hash, (piece + 1) % Self.pieces)
                        for mask in masks {
                            let value = Int(own ^ mask), base = piece * 65_537
                            let budget = radius - mask.nonzeroBitCount
                            for slot in Int(starts[base + value])..<Int(starts[base + value + 1]) {
                                guard (nextPieces[piece * count + slot] ^ following).nonzeroBitCount <= budget else { continue }
                                let position = Int(positions[piece * count + slot])
                                let other = hashes[position]
                                let distance = (other ^ hash).nonzeroBitCount
                                guard distance <= radius else { continue }
                                // A hash close on two pieces would be met twice: it is reported at the
                                // first piece where it is close enough, and skipped on later ones.
                                var earlier = false
                                for before in 0..<piece where (Self.value(other, before) ^ Self.value(hash, before)).nonzeroBitCount <= pieceRadius {
                                    earlier = true
                                }
                                if !earlier { body(position, distance) }
                            }
                        }
                    }
                }
              }
            }
        }
    }

    /// The 16-bit masks of at most 0, 1, 2 and 3 set bits (the piece radii of distances up to 15).
    private static let masks: [[UInt16]] = (0...3).map { flips(radius: $0) }

    /// Every 16-bit mask with at most `radius` bits set, 0 first.
    static func flips(radius: Int) -> [UInt16] {
        var out: [UInt16] = []
        forEachValue(near: 0, radius: radius) { out.append($0) }
        return out
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
