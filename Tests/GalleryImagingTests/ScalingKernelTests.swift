import CScaling
import GalleryImaging
import Testing

/// The resampler's loops in CScaling run in 128-, 256- or 512-bit registers as the processor allows: each width
/// must give exactly the floats their definition gives (sums from 0, in the documented order), and so the same
/// pixels. Serialized: the width is process-wide (any other test resampling meanwhile gets the same pixels).
@Suite("Scaling kernels", .serialized)
struct ScalingKernelTests {
    /// Every width this processor has, the portable one first.
    static var levels: [Int32] { Array(0...fg_scaling_set_level(-1)) }

    /// Runs `body` at `level`, then goes back to the best width.
    static func at<T>(_ level: Int32, _ body: () -> T) -> T {
        #expect(fg_scaling_set_level(level) == level)
        defer { fg_scaling_set_level(-1) }
        return body()
    }

    /// Floats with many bits set, so a different order of adds shows in the sums.
    static func floats(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24) * 255.3 - 0.7
        }
    }

    @Test func columnsAreSumsInRowOrder() {
        for count in [1, 2, 5, 13] {
            for length in [1, 15, 16, 17, 63, 64, 65, 150] {
                let flat = Self.floats(count * length, seed: UInt64(count * 1000 + length))
                let weights = Self.floats(count, seed: 7).map { $0 / 255 }
                var expected = [Float](repeating: 0, count: length)
                for i in 0..<length {
                    var sum: Float = 0
                    for k in 0..<count { sum += flat[k * length + i] * weights[k] }
                    expected[i] = sum
                }
                for level in Self.levels {
                    var got = [Float](repeating: .nan, count: length)
                    Self.at(level) {
                        flat.withUnsafeBufferPointer { rows in
                            let pointers: [UnsafePointer<Float>?] = (0..<count).map { rows.baseAddress! + $0 * length }
                            fg_scaling_columns(pointers, weights, count, &got, length)
                        }
                    }
                    #expect(got == expected, "level \(level), \(count) rows of \(length)")
                }
            }
        }
    }

    /// Four rows into a group (`fg_scaling_interleave`), filtered together: each row's pixels as the four
    /// partial sums define them.
    @Test(arguments: [3, 4])
    func rowQuadsAreFourPartialSums(channels: Int) {
        let inputPixels = 40
        let rows = (0..<4).map { Self.floats(inputPixels * channels + 1, seed: UInt64(11 + $0)) }
        // Outputs with 1 to 11 taps, from different starts.
        let outputs = 11
        let stride = 12
        let first = (0..<outputs).map { ($0 * 3) % (inputPixels - 12) }
        let count = (0..<outputs).map { $0 + 1 }
        let weights = Self.floats(outputs * stride, seed: 13).map { $0 / 255 }
        func expected(_ row: [Float]) -> [Float] {
            var out = [Float](repeating: 0, count: outputs * channels)
            for x in 0..<outputs {
                for c in 0..<channels {
                    var s: [Float] = [0, 0, 0, 0]
                    let whole = count[x] / 4 * 4
                    for k in 0..<count[x] {
                        s[k < whole ? k % 4 : 0] += row[(first[x] + k) * channels + c] * weights[x * stride + k]
                    }
                    out[x * channels + c] = (s[0] + s[1]) + (s[2] + s[3])
                }
            }
            return out
        }
        for level in Self.levels {
            var group = [Float](repeating: .nan, count: inputPixels * 16)
            // One float of padding past the last pixel: the RGB stores write 4 floats a pixel.
            let out = (0..<4).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: outputs * channels + 1) }
            defer { out.forEach { $0.deallocate() } }
            Self.at(level) {
                for (slot, row) in rows.enumerated() { fg_scaling_interleave(row, &group, inputPixels, channels, slot) }
                let pointers: [UnsafeMutablePointer<Float>?] = out
                fg_scaling_row_quad(group, pointers, first, count, weights, stride, outputs, channels)
            }
            for j in 0..<4 {
                let got = Array(UnsafeBufferPointer(start: out[j], count: outputs * channels))
                #expect(got == expected(rows[j]), "level \(level), row \(j)")
            }
        }
    }

    /// RGB bytes of four rows loaded into a group at once: the same floats as each row interleaved on its own,
    /// for widths on either side of the 4-pixel steps, and with a row given twice (a group of fewer rows).
    @Test func rgbRowsLoadIntoTheirSlots() {
        for pixels in [1, 5, 6, 7, 8, 37] {
            let rowBytes = pixels * 3
            let bytes = (0..<(4 * rowBytes)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ ($0 / rowBytes) &* 101) }
            for lines in [[0, 1, 2, 3], [0, 1, 1, 1]] {
                var expected = [Float](repeating: .nan, count: pixels * 16)
                for (slot, j) in lines.enumerated() {
                    let row = bytes[(j * rowBytes)..<((j + 1) * rowBytes)].map(Float.init) + [0]
                    fg_scaling_interleave(row, &expected, pixels, 3, slot)
                }
                for level in Self.levels {
                    var group = [Float](repeating: .nan, count: pixels * 16)
                    Self.at(level) {
                        bytes.withUnsafeBufferPointer { all in
                            let pointers: [UnsafePointer<UInt8>?] = lines.map { all.baseAddress! + $0 * rowBytes }
                            fg_scaling_load_group(pointers, &group, pixels)
                        }
                    }
                    #expect(group == expected, "level \(level), \(pixels) pixels, rows \(lines)")
                }
            }
        }
    }

    @Test(arguments: [1, 3])
    func boxRowsAreExactAverages(channels: Int) {
        let width = 37, height = 9, bytesPerRow = width * channels + 5
        let bytes = (0..<(bytesPerRow * height)).map { UInt8(truncatingIfNeeded: $0 &* 97 ^ ($0 >> 3)) }
        for (boxX, y0, y1) in [(2, 0, 2), (5, 3, 8), (4, 7, 9), (37, 0, 9), (1, 4, 5)] {
            let outWidth = (width + boxX - 1) / boxX
            var expected = [Float](repeating: 0, count: outWidth * channels)
            for bx in 0..<outWidth {
                let x0 = bx * boxX, x1 = min(x0 + boxX, width)
                let inverse = 1 / (Float(y1 - y0) * Float(x1 - x0))
                for c in 0..<channels {
                    var sum: UInt64 = 0
                    for y in y0..<y1 { for x in x0..<x1 { sum += UInt64(bytes[y * bytesPerRow + x * channels + c]) } }
                    expected[bx * channels + c] = Float(sum) * inverse
                }
            }
            for level in Self.levels {
                var columns = [UInt64](repeating: 99, count: width * channels)
                var row = [Float](repeating: .nan, count: outWidth * channels)
                // The same into slot 2 of a group: 16 floats a pixel, 4 of them this row's.
                var group = [Float](repeating: -1, count: outWidth * 16)
                Self.at(level) {
                    fg_scaling_box_row(bytes, bytesPerRow, y0, y1, width, channels, boxX, &columns, &row, outWidth, channels)
                    group.withUnsafeMutableBufferPointer { g in
                        fg_scaling_box_row(bytes, bytesPerRow, y0, y1, width, channels, boxX, &columns, g.baseAddress! + 8,
                                           outWidth, 16)
                    }
                }
                #expect(row == expected, "level \(level), box \(boxX), rows \(y0)..<\(y1)")
                var slot: [Float] = []
                for x in 0..<outWidth { slot += group[(x * 16 + 8)..<(x * 16 + 8 + channels)] }
                #expect(slot == expected, "level \(level), box \(boxX) into a group")
                #expect((0..<outWidth).allSatisfy { x in group[x * 16] == -1 && group[x * 16 + 15] == -1 })
            }
        }
    }

    @Test func bytesLoadAndStoreRoundedAndClamped() {
        let values: [Float] = [-3, -0.4, 0, 0.5, 1.5, 2.5, 2.5001, 100.49, 254.5, 255, 255.7, 300, 1e9]
        let rounded: [UInt8] = [0, 0, 0, 0, 2, 2, 3, 100, 254, 255, 255, 255, 255]
        let padded = values + [Float](repeating: 128.5, count: 70) // past the widest register's lanes
        let bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for level in Self.levels {
            var out = [UInt8](repeating: 1, count: padded.count)
            var loaded = [Float](repeating: .nan, count: bytes.count)
            Self.at(level) {
                fg_scaling_store_row(padded, &out, padded.count)
                fg_scaling_load_row(bytes, &loaded, bytes.count)
            }
            #expect(Array(out.prefix(values.count)) == rounded, "level \(level)")
            #expect(out.suffix(70).allSatisfy { $0 == 128 }, "level \(level): ties to even")
            #expect(loaded == bytes.map(Float.init), "level \(level)")
        }
    }

    /// Whole scalings, every pixel format (grey and RGB run every kernel; alpha formats the vertical one), with
    /// and without the box shrink: the same bytes at every width.
    @Test(arguments: PixelFormat.allCases)
    func everyWidthScalesToTheSameBytes(format: PixelFormat) {
        let source = ScalingTestImages.make(width: 301, height: 203, format: format) { x, y, c in
            UInt8(truncatingIfNeeded: (x &* 73) ^ (y &* 151) ^ (c &* 29))
        }
        for (width, height) in [(256, 173), (100, 67), (31, 203), (301, 20), (9, 7), (450, 300)] {
            let outputs = Self.levels.map { level in Self.at(level) { Resampler.default.scale(source, width: width, height: height) } }
            for (level, out) in zip(Self.levels, outputs).dropFirst() {
                #expect(out.pixels == outputs[0].pixels, "\(format) -> \(width)x\(height) at level \(level)")
            }
        }
    }
}
