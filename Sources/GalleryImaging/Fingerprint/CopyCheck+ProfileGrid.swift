extension CopyCheck {
    /// Where the samples of one profile comparison fall, for each point of the fit's grid (15 scales x 41
    /// offsets): each of the 24 samples' two neighbours and weight in each profile, as the interpolation
    /// at scale 0.86 + 0.02 s and offset 0.01 o computes them. 148 KB, made once a process.
    struct ProfileGrid: Sendable {
        static let side = GreyReduction.side, scales = 15, offsets = 41
        static let shared = ProfileGrid()
        /// Per point, per sample: A's left and right neighbour, B's left and right.
        let places: [UInt8]
        /// Per point, per sample: A's weight, B's.
        let weights: [Float]
        /// Whether the point's overlap is at least 0.6 of a side (else it is not compared).
        let valid: [Bool]

        init() {
            let n = Self.side
            var places = [UInt8](repeating: 0, count: Self.scales * Self.offsets * 4 * n)
            var weights = [Float](repeating: 0, count: Self.scales * Self.offsets * 2 * n)
            var valid = [Bool](repeating: false, count: Self.scales * Self.offsets)
            for scale in 0..<Self.scales {
                for offset in -20...20 {
                    let point = scale * Self.offsets + offset + 20
                    let s = 0.86 + 0.02 * Double(scale), d = 0.01 * Double(offset)
                    let lo = max(0, d), hi = min(1, d + s)
                    guard hi - lo >= 0.6 else { continue }
                    valid[point] = true
                    // Multiplications, not two divisions a sample, as the comparison has always sampled.
                    let spacing = (hi - lo) / Double(n), inverse = 1 / s
                    for i in 0..<n {
                        let xa = lo + (Double(i) + 0.5) * spacing
                        for (k, x) in [xa, (xa - d) * inverse].enumerated() {
                            let f = min(max(x * Double(n) - 0.5, 0), Double(n - 1))
                            let j = Int(f)
                            places[(point * n + i) * 4 + 2 * k] = UInt8(j)
                            places[(point * n + i) * 4 + 2 * k + 1] = UInt8(min(j + 1, n - 1))
                            weights[(point * n + i) * 2 + k] = Float(f - Double(j))
                        }
                    }
                }
            }
            (self.places, self.weights, self.valid) = (places, weights, valid)
        }
    }
}
