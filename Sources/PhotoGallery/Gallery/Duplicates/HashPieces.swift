/// The four 16-bit pieces multi-index hashing (Norouzi, Punjani and Fleet, 2012) cuts a 64-bit hash into,
/// shared by the lookup index (``NearHashIndex``) and the grouping's all-pairs search (``NearPairs``).
///
/// Two hashes within distance d, with d = 4r + a (0 <= a < 4), agree to within r bits on one of the
/// pieces 0...a, or to within r - 1 bits on one of the others: else they would differ in at least
/// (a + 1)(r + 1) + (3 - a)r = d + 1 bits. So a search visits, on piece k, every 16-bit value within
/// ``radii(_:)``[k] of its own (137 values at radius 2, 17 at 1, none at -1).
///
/// Piece k is kept in the top 16 bits of a table key: `key(hash, k)` rotates the hash so that sorting
/// the keys sorts by that piece (a table's bucket) and, within it, by the other 48 bits.
enum HashPieces {
    static let count = 4

    /// Per piece, how far (in bits) a hash within `radius` must be on it, if it is found through that
    /// piece; -1 for a piece not searched.
    static func radii(_ radius: Int) -> [Int] {
        let (r, a) = (radius / count, radius % count)
        return (0..<count).map { $0 <= a ? r : r - 1 }
    }

    /// `hash` rotated so that piece `piece` (bits 16k..<16k+16) is the top 16 bits.
    @inline(__always)
    static func key(_ hash: UInt64, _ piece: Int) -> UInt64 {
        let shift = UInt64(16 * (piece + 1) & 63)
        return shift == 0 ? hash : (hash >> shift) | (hash << (64 - shift))
    }

    /// The hash whose ``key(_:_:)`` for `piece` is `key`.
    @inline(__always)
    static func hash(_ key: UInt64, _ piece: Int) -> UInt64 {
        let shift = UInt64(16 * (piece + 1) & 63)
        return shift == 0 ? key : (key << shift) | (key >> (64 - shift))
    }

    /// Piece `piece` of `hash`.
    @inline(__always)
    static func value(_ hash: UInt64, _ piece: Int) -> UInt16 { UInt16(truncatingIfNeeded: hash >> UInt64(16 * piece)) }

    /// Whether hashes differing in `difference` are found through a piece before `piece` (so a search
    /// reports each pair once, at the first piece that finds it).
    @inline(__always)
    static func foundEarlier(_ difference: UInt64, before piece: Int, radii: [Int]) -> Bool {
        for earlier in 0..<piece where value(difference, earlier).nonzeroBitCount <= radii[earlier] { return true }
        return false
    }

    /// The 16-bit masks of at most `radius` set bits, 0 first (none for a negative radius).
    static func masks(_ radius: Int) -> [UInt16] {
        guard radius >= 0 else { return [] }
        if radius < cached.count { return cached[radius] }
        var out: [UInt16] = []
        forEachValue(near: 0, radius: radius) { out.append($0) }
        return out
    }

    private static let cached: [[UInt16]] = (0...3).map { radius in
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
