/// Cosine tables turned a position at a time, for the hashes' sums that run side by side in the lanes of a
/// vector (``PerceptualHash``, ``ThumbHash``): one load gives every cosine's value at a position.
enum CosineLanes {
    /// `rows` (row `k` from `k · size`, for `k` in `0..<count`) a position at a time: element `i`, lane `k`, is
    /// `rows[k · size + i]`; lanes from `count` on are 0. At most 8 rows.
    static func lanes(_ rows: [Double], count: Int, size: Int) -> [SIMD8<Double>] {
        precondition(count <= 8 && rows.count >= count * size, "at most 8 rows of `size` cosines")
        return (0..<size).map { i in
            var lanes = SIMD8<Double>.zero
            for k in 0..<count { lanes[k] = rows[k * size + i] }
            return lanes
        }
    }
}
