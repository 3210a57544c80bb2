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
    /// once for both, and the two rows' sums are independent, so twice the multiply-adds are in flight. Each
    /// row's sums are added in the same order whatever its pair, so a row gives the same floats either way.
    ///
    /// One 4-lane multiply-add per tap and row; for RGB the fourth lane reads the next pixel's red (or the
    /// row's padding float) and is discarded. Four sums a row, so four taps are in flight at once instead of
    /// each waiting for the previous add. One 4-lane store a pixel; for RGB the fourth lane lands on the next
    /// pixel's red, written next, or on the row's padding (see `ringStride`).
    @inline(__always)
    func filterRowPair<C: ChannelCount>(_: C.Type, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                        into outA: UnsafeMutablePointer<Float>, _ outB: UnsafeMutablePointer<Float>,
                                        weights: ResampleWeights) {
        let n = C.value
        let first = weights.first
        let count = weights.count
        for x in 0..<weights.outputSize {
            let w = weights.taps(of: x)
            let offset = first[x] &* n
            let pa = UnsafeRawPointer(a + offset), pb = UnsafeRawPointer(b + offset)
            var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
            var b0 = SIMD4<Float>(), b1 = SIMD4<Float>(), b2 = SIMD4<Float>(), b3 = SIMD4<Float>()
            let taps = count[x]
            var k = 0
            while k &+ 4 <= taps {
                let at = k &* n &* 4
                let w0 = w[k], w1 = w[k &+ 1], w2 = w[k &+ 2], w3 = w[k &+ 3]
                a0 += pa.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self) * w0
                b0 += pb.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self) * w0
                a1 += pa.loadUnaligned(fromByteOffset: at &+ n &* 4, as: SIMD4<Float>.self) * w1
                b1 += pb.loadUnaligned(fromByteOffset: at &+ n &* 4, as: SIMD4<Float>.self) * w1
                a2 += pa.loadUnaligned(fromByteOffset: at &+ n &* 8, as: SIMD4<Float>.self) * w2
                b2 += pb.loadUnaligned(fromByteOffset: at &+ n &* 8, as: SIMD4<Float>.self) * w2
                a3 += pa.loadUnaligned(fromByteOffset: at &+ n &* 12, as: SIMD4<Float>.self) * w3
                b3 += pb.loadUnaligned(fromByteOffset: at &+ n &* 12, as: SIMD4<Float>.self) * w3
                k &+= 4
            }
            while k < taps {
                let at = k &* n &* 4
                a0 += pa.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self) * w[k]
                b0 += pb.loadUnaligned(fromByteOffset: at, as: SIMD4<Float>.self) * w[k]
                k &+= 1
            }
            UnsafeMutableRawPointer(outA + x &* n).storeBytes(of: (a0 + a1) + (a2 + a3), as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(outB + x &* n).storeBytes(of: (b0 + b1) + (b2 + b3), as: SIMD4<Float>.self)
        }
    }
}
