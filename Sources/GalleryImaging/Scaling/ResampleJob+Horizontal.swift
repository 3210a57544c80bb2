import CScaling

/// The horizontal pass of ``ResampleJob``: shrunk rows filtered into the ring's rows, colour rows two at a
/// time in one pass over the taps.
extension ResampleJob {
    /// Horizontal filter of one shrunk row of one or two channels (grey, grey + alpha) into one intermediate row
    /// of `weights.outputSize` pixels. Colour rows go through ``filterRowPair(_:_:_:into:_:weights:)``.
    @inline(__always)
    func filterRow<C: ChannelCount>(_: C.Type, _ row: UnsafePointer<Float>,
                                    into out: UnsafeMutablePointer<Float>, weights: ResampleWeights) {
        let n = C.value
        let first = weights.first
        let count = weights.count
        for x in 0..<weights.outputSize {
            let w = weights.taps(of: x)
            let src = row + first[x] &* n
            let o = out + x &* n
            var sum: (Float, Float) = (0, 0)
            for k in 0..<count[x] {
                let p = src + k &* n
                sum.0 += p[0] * w[k]
                if n > 1 { sum.1 += p[1] * w[k] }
            }
            o[0] = sum.0
            if n > 1 { o[1] = sum.1 }
        }
    }

    /// Horizontal filter of two shrunk rows of three or four channels (`a` and `b`; `a` twice for a row
    /// alone) into two intermediate rows, in one pass over the taps: each tap's position and weight are read
    /// once for both, and both rows' pixels share one register. Each row's sums are added in the same order
    /// whatever its pair, so a row gives the same floats either way (`fg_scaling_row_pair`, CScaling).
    ///
    /// Four partial sums a row, so four taps are in flight at once instead of each waiting for the previous
    /// add. For RGB each pixel is loaded and stored as 4 floats: the fourth reads the next pixel's red (or
    /// the row's padding float) and is discarded, and lands on the next pixel's red, written next, or on the
    /// row's padding (see `ringStride`).
    @inline(__always)
    func filterRowPair<C: ChannelCount>(_: C.Type, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                        into outA: UnsafeMutablePointer<Float>, _ outB: UnsafeMutablePointer<Float>,
                                        weights: ResampleWeights) {
        fg_scaling_row_pair(a, b, outA, outB, weights.first, weights.count, weights.weights, weights.stride,
                            weights.outputSize, C.value)
    }
}
