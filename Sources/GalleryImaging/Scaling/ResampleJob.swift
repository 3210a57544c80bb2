/// One scaling operation: box shrink + horizontal filter row by row into a Float buffer of
/// `width x shrunkHeight` premultiplied samples, then the vertical filter into the output bitmap.
///
/// Only a few buffers are allocated per call (one shrunk row, integer column sums, the
/// intermediate, one output row), none per pixel; the hot loops run on raw pointers with the
/// channel count known at compile time (see `ChannelCount`), so they carry no bounds checks.
struct ResampleJob {
    let source: Bitmap
    let width: Int
    let height: Int
    let boxX: Int
    let boxY: Int
    let filter: ResampleFilter

    func run() -> Bitmap {
        switch source.format {
        case .gray8: run(GrayChannels.self)
        case .grayAlpha8: run(GrayAlphaChannels.self)
        case .rgb8: run(RGBChannels.self)
        case .rgba8: run(RGBAChannels.self)
        }
    }

    private func run<C: ChannelCount>(_: C.Type) -> Bitmap {
        let shrunkWidth = (source.width + boxX - 1) / boxX
        let shrunkHeight = (source.height + boxY - 1) / boxY
        let horizontal = ResampleWeights(inputSize: shrunkWidth,
                                         inputExtent: Double(source.width) / Double(boxX),
                                         outputSize: width, filter: filter)
        let vertical = ResampleWeights(inputSize: shrunkHeight,
                                       inputExtent: Double(source.height) / Double(boxY),
                                       outputSize: height, filter: filter)
        let rowLength = width * C.value
        var intermediate = [Float](repeating: 0, count: rowLength * shrunkHeight)
        // One float of padding: the RGB horizontal filter loads 4 lanes at the last pixel.
        var shrunkRow = [Float](repeating: 0, count: shrunkWidth * C.value + 1)
        let boxed = boxX > 1 || boxY > 1
        var columns = [UInt64](repeating: 0, count: boxed ? source.width * C.value : 0)
        intermediate.withUnsafeMutableBufferPointer { inter in
            shrunkRow.withUnsafeMutableBufferPointer { row in
                columns.withUnsafeMutableBufferPointer { columns in
                    source.withUnsafeBytes { src in
                        let base = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        for sy in 0..<shrunkHeight {
                            if boxed {
                                boxShrinkRow(C.self, sy, from: base, columns: columns.baseAddress!,
                                             into: row.baseAddress!, width: shrunkWidth)
                            } else {
                                loadRow(C.self, sy, from: base, into: row.baseAddress!)
                            }
                            filterRow(C.self, row.baseAddress!, into: inter.baseAddress! + sy * rowLength,
                                      weights: horizontal)
                        }
                    }
                }
            }
        }
        var accumulator = [Float](repeating: 0, count: rowLength)
        return Bitmap(width: width, height: height, format: source.format) { out in
            let dst = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            intermediate.withUnsafeBufferPointer { inter in
                accumulator.withUnsafeMutableBufferPointer { acc in
                    for y in 0..<height {
                        filterColumns(inter.baseAddress!, into: acc.baseAddress!, rowLength: rowLength,
                                      output: y, weights: vertical)
                        storeRow(C.self, acc.baseAddress!, into: dst + y * rowLength, pixels: width)
                    }
                }
            }
        }
    }

    /// Converts source row `y` to Float samples, premultiplying colour by alpha (alpha / 255).
    @inline(__always)
    private func loadRow<C: ChannelCount>(_: C.Type, _ y: Int, from base: UnsafePointer<UInt8>,
                                          into row: UnsafeMutablePointer<Float>) {
        let n = C.value
        let line = base + y * source.bytesPerRow
        if !C.hasAlpha {
            for i in 0..<(source.width * n) { row[i] = Float(line[i]) }
            return
        }
        for x in 0..<source.width {
            let px = line + x * n
            let out = row + x * n
            let alpha = Float(px[n - 1])
            let scale = alpha * (1 / 255)
            for c in 0..<(n - 1) { out[c] = Float(px[c]) * scale }
            out[n - 1] = alpha
        }
    }

    /// Averages source rows `sy*boxY ..< (sy+1)*boxY` (fewer at the bottom edge) in blocks of
    /// `boxX` columns (fewer at the right edge) into `row`, premultiplied. Rows are first summed
    /// column by column into `columns` (exact integers: a contiguous, vectorisable add per source
    /// byte), then each block of columns once per output row. Colour is summed times alpha.
    @inline(__always)
    private func boxShrinkRow<C: ChannelCount>(_: C.Type, _ sy: Int, from base: UnsafePointer<UInt8>,
                                               columns: UnsafeMutablePointer<UInt64>,
                                               into row: UnsafeMutablePointer<Float>, width: Int) {
        let n = C.value
        let y0 = sy &* boxY
        let y1 = min(y0 &+ boxY, source.height)
        let samples = source.width &* n
        columns.update(repeating: 0, count: samples)
        for y in y0..<y1 {
            let line = base + y &* source.bytesPerRow
            if C.hasAlpha {
                var i = 0
                while i < samples {
                    let alpha = UInt64(line[i &+ n &- 1])
                    for c in 0..<(n - 1) { columns[i &+ c] &+= UInt64(line[i &+ c]) &* alpha }
                    columns[i &+ n &- 1] &+= alpha
                    i &+= n
                }
            } else {
                for i in 0..<samples { columns[i] &+= UInt64(line[i]) }
            }
        }
        let rows = Float(y1 - y0)
        for bx in 0..<width {
            let x0 = bx &* boxX
            let x1 = min(x0 &+ boxX, source.width)
            let inverse = 1 / (rows * Float(x1 &- x0))
            let colourScale = C.hasAlpha ? inverse / 255 : inverse
            let out = row + bx &* n
            for c in 0..<n {
                var sum: UInt64 = 0
                var i = x0 &* n &+ c
                for _ in x0..<x1 {
                    sum &+= columns[i]
                    i &+= n
                }
                out[c] = Float(sum) * (C.hasAlpha && c < n - 1 ? colourScale : inverse)
            }
        }
    }

    /// Horizontal filter of one shrunk row into one intermediate row of `weights.outputSize` pixels.
    @inline(__always)
    private func filterRow<C: ChannelCount>(_: C.Type, _ row: UnsafePointer<Float>,
                                            into out: UnsafeMutablePointer<Float>, weights: ResampleWeights) {
        let n = C.value
        weights.first.withUnsafeBufferPointer { first in
            weights.count.withUnsafeBufferPointer { count in
                weights.weights.withUnsafeBufferPointer { taps in
                    for x in 0..<weights.outputSize {
                        let w = taps.baseAddress! + x * weights.stride
                        let src = row + first[x] &* n
                        let o = out + x &* n
                        if n >= 3 {
                            // One 4-lane multiply-add per tap; for RGB the fourth lane reads the next
                            // pixel's red (or the row's padding float) and is discarded.
                            var sum = SIMD4<Float>()
                            for k in 0..<count[x] {
                                let p = UnsafeRawPointer(src + k &* n).loadUnaligned(as: SIMD4<Float>.self)
                                sum += p * w[k]
                            }
                            o[0] = sum[0]
                            o[1] = sum[1]
                            o[2] = sum[2]
                            if n > 3 { o[3] = sum[3] }
                        } else {
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
                }
            }
        }
    }

    /// Vertical filter: output row `output` as a weighted sum of whole intermediate rows, taps in the
    /// outer loop so the inner loop streams contiguous memory (and vectorises).
    @inline(__always)
    private func filterColumns(_ inter: UnsafePointer<Float>, into acc: UnsafeMutablePointer<Float>,
                               rowLength: Int, output: Int, weights: ResampleWeights) {
        let first = weights.first[output]
        let count = weights.count[output]
        weights.weights.withUnsafeBufferPointer { taps in
            let w = taps.baseAddress! + output * weights.stride
            acc.update(repeating: 0, count: rowLength)
            for k in 0..<count {
                let wk = w[k]
                let src = inter + (first + k) * rowLength
                for i in 0..<rowLength { acc[i] += src[i] * wk }
            }
        }
    }

    /// Un-premultiplies, rounds and clamps one row of filtered samples into 8-bit pixels.
    /// A pixel whose alpha rounds to 0 is stored as all zeros (its colour is meaningless).
    @inline(__always)
    private func storeRow<C: ChannelCount>(_: C.Type, _ acc: UnsafePointer<Float>,
                                           into dst: UnsafeMutablePointer<UInt8>, pixels: Int) {
        let n = C.value
        if !C.hasAlpha {
            for i in 0..<(pixels * n) { dst[i] = clampToByte(acc[i]) }
            return
        }
        for x in 0..<pixels {
            let p = acc + x * n
            let o = dst + x * n
            // Divide by the unclamped alpha: where Lanczos overshoots, colour and alpha overshoot
            // together, and their ratio is the true colour.
            let alpha = p[n - 1]
            let alphaByte = clampToByte(alpha)
            if alphaByte == 0 {
                for c in 0..<n { o[c] = 0 }
                continue
            }
            let unpremultiply = 255 / alpha
            for c in 0..<(n - 1) { o[c] = clampToByte(p[c] * unpremultiply) }
            o[n - 1] = alphaByte
        }
    }
}

/// Rounds to nearest and clamps to 0...255 (Lanczos overshoots near edges).
@inline(__always)
func clampToByte(_ value: Float) -> UInt8 {
    UInt8(min(max(value + 0.5, 0), 255))
}
