import CScaling

/// One scaling operation: box shrink + horizontal filter row by row into Float rows of `width`
/// premultiplied samples, then the vertical filter into the output bitmap, row by row as the
/// horizontal rows it needs are made (a ring of a few rows, not the whole intermediate image).
///
/// A few small buffers are allocated per call (the ring, one shrunk row, integer column sums, one
/// accumulator row), none per pixel, and the filter taps come from ``ResampleWeightsCache``. The hot
/// loops are CScaling's (the filters, and for pixels without alpha the box shrink and the conversions
/// to floats and back), in registers as wide as the processor has, the same pixels at every width; the
/// alpha formats' premultiplying loops run here on raw pointers with the channel count known at compile
/// time (see `ChannelCount`), with no bounds checks and no reference counting.
struct ResampleJob {
    let source: Bitmap
    let width: Int
    let height: Int
    let boxX: Int
    let boxY: Int
    let filter: ResampleFilter
    var weights: ResampleWeightsCache = .shared
    /// The source pixels the picture spans, per axis (see ``Resampler/scale(_:width:height:extent:)``).
    /// nil: the whole bitmap.
    var extentX: Double?
    var extentY: Double?

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
        let horizontal = weights.weights(inputSize: shrunkWidth, inputExtent: (extentX ?? Double(source.width)) / Double(boxX),
                                         outputSize: width, filter: filter)
        let vertical = weights.weights(inputSize: shrunkHeight, inputExtent: (extentY ?? Double(source.height)) / Double(boxY),
                                       outputSize: height, filter: filter)
        let rowLength = width * C.value
        // Colour rows are filtered horizontally four at a time (one pass over the taps for the four: see
        // `filterRowQuad`), up to three rows ahead of need, so the ring holds three rows more.
        let quads = C.value >= 3
        let ringRows = vertical.ringRows + (quads ? 3 : 0)
        // Rows of the ring are padded by one float: the RGB horizontal filter stores 4 lanes per pixel.
        let ringStride = rowLength + 1
        // Scratch, uninitialised (every float is written before it is read): the ring of filtered rows,
        // one shrunk row (grey and premultiplied formats), one accumulator row, the integer column sums of
        // the box shrink, the tap row pointers. For colour, the four shrunk rows side by side (16 floats a
        // pixel, zeroed once: a box-shrunk RGB row leaves its pixels' fourth float as it is), where a group
        // of fewer than four (the bottom rows) leaves the rest as they were, filtered into a spare row.
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * ringStride)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: shrunkWidth * C.value)
        let group = UnsafeMutablePointer<Float>.allocate(capacity: quads ? shrunkWidth * 16 : 0)
        group.initialize(repeating: 0, count: quads ? shrunkWidth * 16 : 0)
        let spare = UnsafeMutablePointer<Float>.allocate(capacity: quads ? ringStride : 0)
        let outputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 4)
        let lines = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 4)
        let accumulator = UnsafeMutablePointer<Float>.allocate(capacity: rowLength)
        let columns = UnsafeMutablePointer<UInt64>.allocate(capacity: shrinks ? source.width * C.value : 0)
        let taps = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: vertical.stride)
        defer {
            ring.deallocate()
            row.deallocate()
            group.deallocate()
            spare.deallocate()
            outputs.deallocate()
            lines.deallocate()
            accumulator.deallocate()
            columns.deallocate()
            taps.deallocate()
        }
        return Bitmap(width: width, height: height, format: source.format) { out in
            let dst = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            source.withUnsafeBytes { src in
                let base = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
                // Shrunk rows are filtered horizontally as the vertical filter first needs them, into the
                // ring: only `ringRows` of them are ever held, so the intermediate stays in the cache.
                var produced = 0
                for y in 0..<height {
                    let first = vertical.first[y]
                    let count = vertical.count[y]
                    while produced < first + count {
                        guard quads else {
                            shrunkRow(C.self, produced, from: base, columns: columns, into: row, width: shrunkWidth)
                            filterRow(C.self, row, into: ring + (produced % ringRows) * ringStride, weights: horizontal)
                            produced += 1
                            continue
                        }
                        let rows = min(4, shrunkHeight - produced)
                        for j in 0..<4 {
                            outputs[j] = j < rows ? ring + ((produced + j) % ringRows) * ringStride : spare
                        }
                        if C.hasAlpha || shrinks {
                            for j in 0..<rows {
                                groupRow(C.self, produced + j, from: base, columns: columns, through: row,
                                         into: group, slot: j, width: shrunkWidth)
                            }
                        } else {
                            for j in 0..<4 { lines[j] = base + min(produced + j, shrunkHeight - 1) * source.bytesPerRow }
                            fg_scaling_load_group(lines, group, shrunkWidth)
                        }
                        filterRowQuad(C.self, group, into: outputs, weights: horizontal)
                        produced += rows
                    }
                    for k in 0..<count { taps[k] = UnsafePointer(ring + ((first + k) % ringRows) * ringStride) }
                    let w = vertical.taps(of: y)
                    // Two loops, not one: rounding lanes out of a SIMD value stays scalar, while a loop over
                    // the accumulator row in memory vectorises (see `storeRow`).
                    fg_scaling_columns(taps, w, count, accumulator, rowLength)
                    storeRow(C.self, accumulator, into: dst + y * rowLength, pixels: width)
                }
            }
        }
    }

    /// Whether the job box-shrinks before filtering.
    private var shrinks: Bool { boxX > 1 || boxY > 1 }

    /// Shrunk row `sy`: box-averaged when the job shrinks, else source row `sy` as Float samples.
    @inline(__always)
    private func shrunkRow<C: ChannelCount>(_: C.Type, _ sy: Int, from base: UnsafePointer<UInt8>,
                                            columns: UnsafeMutablePointer<UInt64>,
                                            into row: UnsafeMutablePointer<Float>, width: Int) {
        if shrinks {
            boxShrinkRow(C.self, sy, from: base, columns: columns, into: row, width: width)
        } else {
            loadRow(C.self, sy, from: base, into: row)
        }
    }

    /// Shrunk row `sy` into slot `slot` of the group of four (see `fg_scaling_interleave`) when it is box
    /// shrunk or premultiplied: RGB averaged straight into the slot, premultiplied formats through `row`.
    /// (RGB rows not shrunk go in four at a time: `fg_scaling_load_group`.)
    @inline(__always)
    private func groupRow<C: ChannelCount>(_: C.Type, _ sy: Int, from base: UnsafePointer<UInt8>,
                                           columns: UnsafeMutablePointer<UInt64>, through row: UnsafeMutablePointer<Float>,
                                           into group: UnsafeMutablePointer<Float>, slot: Int, width: Int) {
        if C.hasAlpha {
            shrunkRow(C.self, sy, from: base, columns: columns, into: row, width: width)
            fg_scaling_interleave(row, group, width, C.value, slot)
        } else {
            let y0 = sy &* boxY
            fg_scaling_box_row(base, source.bytesPerRow, y0, min(y0 &+ boxY, source.height), source.width, C.value, boxX,
                               columns, group + slot &* 4, width, 16)
        }
    }

    /// Converts source row `y` to Float samples, premultiplying colour by alpha (alpha / 255); without
    /// alpha, CScaling's conversion.
    @inline(__always)
    private func loadRow<C: ChannelCount>(_: C.Type, _ y: Int, from base: UnsafePointer<UInt8>,
                                          into row: UnsafeMutablePointer<Float>) {
        let n = C.value
        let line = base + y * source.bytesPerRow
        if !C.hasAlpha {
            fg_scaling_load_row(line, row, source.width &* n)
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
        if !C.hasAlpha {
            fg_scaling_box_row(base, source.bytesPerRow, y0, y1, source.width, n, boxX, columns, row, width, n)
            return
        }
        let samples = source.width &* n
        columns.update(repeating: 0, count: samples)
        for y in y0..<y1 {
            let line = base + y &* source.bytesPerRow
            var i = 0
            while i < samples {
                let alpha = UInt64(line[i &+ n &- 1])
                for c in 0..<(n - 1) { columns[i &+ c] &+= UInt64(line[i &+ c]) &* alpha }
                columns[i &+ n &- 1] &+= alpha
                i &+= n
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

    /// Un-premultiplies, rounds and clamps one row of filtered samples into 8-bit pixels.
    /// A pixel whose alpha rounds to 0 is stored as all zeros (its colour is meaningless).
    @inline(__always)
    private func storeRow<C: ChannelCount>(_: C.Type, _ acc: UnsafePointer<Float>,
                                           into dst: UnsafeMutablePointer<UInt8>, pixels: Int) {
        let n = C.value
        if !C.hasAlpha {
            fg_scaling_store_row(acc, dst, pixels &* n)
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

/// Rounds to nearest (ties to even) and clamps to 0...255 (Lanczos overshoots near edges).
///
/// Branch-free and without the range check of `UInt8(_: Float)`: adding 2^23 to a value in 0...255
/// leaves its rounded integer in the low bits of the Float's pattern, so loops over it vectorise.
@inline(__always)
func clampToByte(_ value: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: (min(max(value, 0), 255) + 8_388_608).bitPattern)
}
