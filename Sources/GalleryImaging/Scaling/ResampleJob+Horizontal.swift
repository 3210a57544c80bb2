import CScaling

/// The horizontal pass of ``ResampleJob``: shrunk rows filtered into the ring's rows, colour rows four at a
/// time in one pass over the taps.
extension ResampleJob {
    /// Horizontal filter of one shrunk row of one or two channels (grey, grey + alpha) into one intermediate row
    /// of `weights.outputSize` pixels. Colour rows go through ``filterRowQuad(_:_:into:weights:)``.
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

    /// Horizontal filter of four shrunk rows of three or four channels, side by side in `group` (see
    /// `fg_scaling_interleave`), into `outputs[0...3]`, in one pass over the taps: each tap's position and
    /// weight are read once for the four, and their pixels share one register. Each row's sums are added in
    /// the same order whatever its group, so a row gives the same floats either way (`fg_scaling_row_quad`,
    /// CScaling).
    ///
    /// Four partial sums a row, so four taps are in flight at once instead of each waiting for the previous
    /// add. For RGB each output pixel is stored as 4 floats: the fourth lands on the next pixel's red, written
    /// next, or on the row's padding (see `ringStride`).
    @inline(__always)
    func filterRowQuad<C: ChannelCount>(_: C.Type, _ group: UnsafePointer<Float>,
                                        into outputs: UnsafePointer<UnsafeMutablePointer<Float>?>,
                                        weights: ResampleWeights) {
        fg_scaling_row_quad(group, outputs, weights.first, weights.count, weights.weights, weights.stride,
                            weights.outputSize, C.value)
    }
}
