import GalleryImaging
import Testing

@Suite("Resampler")
struct ScalingResamplerTests {
    typealias Images = ScalingTestImages

    static let sizes: [(Int, Int, Int, Int)] = [
        (64, 48, 16, 12), // plain reduce
        (1200, 800, 100, 67), // large factor: integer box shrink, then Lanczos
        (640, 480, 256, 192), // factor 2.5: no box shrink
        (10, 10, 37, 23), // upscale
        (1, 50, 1, 7), // 1-pixel-wide source
        (50, 1, 9, 1), // 1-pixel-high source
        (1, 1, 5, 3), // single pixel, upscaled
        (300, 200, 1, 1), // down to a single pixel
        (7, 5, 7, 2), // one axis only
    ]

    @Test(arguments: PixelFormat.allCases)
    func constantImageStaysConstant(format: PixelFormat) {
        let colour: [UInt8] = [200, 17, 99, 255].suffix(format.channels).map { $0 }
        for (w, h, tw, th) in Self.sizes {
            let source = Images.make(width: w, height: h, format: format) { _, _, c in colour[c] }
            for filter in ResampleFilter.allCases {
                let out = Resampler(filter: filter).scale(source, width: tw, height: th)
                #expect(out.width == tw && out.height == th && out.format == format)
                let expected = (0..<(tw * th)).flatMap { _ in colour }
                #expect(out.pixels == expected, "\(filter) \(format) \(w)x\(h) -> \(tw)x\(th)")
            }
        }
    }

    @Test(arguments: PixelFormat.allCases)
    func areaFilterMatchesExactAreaAverage(format: PixelFormat) {
        let source = Images.make(width: 97, height: 61, format: format) { x, y, c in
            // Busy content (a hash) so any misplaced weight shows; alpha kept mostly visible.
            let v = UInt8(truncatingIfNeeded: (x &* 73) ^ (y &* 151) ^ (c &* 29))
            return format.hasAlpha && c == format.channels - 1 ? 64 | v : v
        }
        for (tw, th) in [(20, 13), (48, 30), (97, 7), (3, 61), (1, 1)] {
            let out = Resampler(filter: .area).scale(source, width: tw, height: th)
            let reference = Images.areaReference(source, width: tw, height: th)
            #expect(Images.maxDifference(out, reference) <= 1.0, "\(format) -> \(tw)x\(th)")
        }
    }

    @Test(arguments: [(1500, 1000, 256, 171), (500, 375, 256, 192), (1200, 800, 100, 67), (800, 1200, 67, 100),
                      (1001, 777, 97, 75)]) // last: partial boxes at the right and bottom edges
    func lanczosIsCloseToAreaAverageOnSmoothContent(size: (Int, Int, Int, Int)) {
        let source = Images.smooth(width: size.0, height: size.1, format: .rgb8)
        let out = Resampler.default.scale(source, width: size.2, height: size.3)
        let reference = Images.areaReference(source, width: size.2, height: size.3)
        // Smooth content has nothing for Lanczos to sharpen, so both must agree closely.
        #expect(Images.psnr(out, reference) > 45)
        #expect(Images.maxDifference(out, reference) <= 3)
    }

    /// Colour rows are filtered horizontally four at a time: each row of an image scaled across only must be
    /// that row scaled alone (a one-row image's row is a group of one), for every remainder of rows by four.
    @Test(arguments: [PixelFormat.rgb8, .rgba8], [8, 9, 10, 11])
    func rowsFilteredInGroupsMatchRowsFilteredAlone(format: PixelFormat, height: Int) {
        let source = Images.make(width: 301, height: height, format: format) { x, y, c in
            UInt8(truncatingIfNeeded: (x &* 2_654_435_761) >> 7 ^ (y &* 40_503) ^ (c &* 97))
        }
        let whole = Resampler.default.scale(source, width: 256, height: height)
        for y in 0..<height {
            let row = Images.make(width: 301, height: 1, format: format) { x, _, c in source.pixels[y * source.bytesPerRow + x * format.channels + c] }
            let alone = Resampler.default.scale(row, width: 256, height: 1)
            let line = Array(whole.pixels[(y * whole.bytesPerRow)..<(y * whole.bytesPerRow + 256 * format.channels)])
            let differences = zip(line, alone.pixels).map { abs(Int($0) - Int($1)) }
            #expect(differences.max() ?? 0 <= 1 && differences.reduce(0, +) <= 4, "\(format), row \(y) of \(height)")
        }
    }

    @Test(arguments: ResampleFilter.allCases)
    func transparentColourDoesNotBleed(filter: ResampleFilter) {
        // Left half: fully transparent pure red. Right half: opaque green.
        let source = Images.make(width: 90, height: 30, format: .rgba8) { x, _, c in
            x < 45 ? [255, 0, 0, 0][c] : [0, 200, 0, 255][c]
        }
        let out = Resampler(filter: filter).scale(source, width: 20, height: 7)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let alpha = out[x, y, 3]
                if alpha == 0 {
                    #expect((0..<3).allSatisfy { out[x, y, $0] == 0 })
                } else {
                    // Any visible pixel, even a half-covered edge one, is pure green.
                    #expect(out[x, y, 0] == 0 && out[x, y, 2] == 0, "red leaked at \(x),\(y)")
                    #expect(out[x, y, 1] == 200, "green changed at \(x),\(y): \(out[x, y, 1])")
                }
            }
        }
        #expect(out[0, 3, 3] == 0 && out[19, 3, 3] == 255)
    }

    @Test func paddedRowsAreRespected() {
        let packed = Images.smooth(width: 33, height: 21, format: .rgb8)
        let stride = 33 * 3 + 13
        var padded = [UInt8](repeating: 0xEE, count: stride * 21)
        for y in 0..<21 {
            for i in 0..<(33 * 3) { padded[y * stride + i] = packed.pixels[y * 33 * 3 + i] }
        }
        let paddedBitmap = Bitmap(width: 33, height: 21, format: .rgb8, bytesPerRow: stride, pixels: padded)
        for filter in ResampleFilter.allCases {
            let a = Resampler(filter: filter).scale(packed, width: 10, height: 6)
            let b = Resampler(filter: filter).scale(paddedBitmap, width: 10, height: 6)
            #expect(a == b)
        }
    }

    @Test func hardEdgesAreClampedAndAreaNeverRings() {
        // A black/white step: Lanczos rings (overshoots) next to it, which must be clamped, not
        // wrapped; far from the step both sides keep their value. Area averaging never rings.
        let source = Images.make(width: 400, height: 40, format: .gray8) { x, _, _ in x < 200 ? 0 : 255 }
        let lanczos = Resampler.default.scale(source, width: 37, height: 4)
        let lanczosRow = (0..<37).map { lanczos[$0, 1, 0] }
        #expect(lanczosRow.prefix(15).allSatisfy { $0 == 0 } && lanczosRow.suffix(15).allSatisfy { $0 == 255 })
        #expect(lanczosRow.contains { $0 > 0 && $0 < 10 }, "expected visible ringing: \(lanczosRow)")
        let area = Resampler(filter: .area).scale(source, width: 37, height: 4)
        let areaRow = (0..<37).map { area[$0, 1, 0] }
        #expect(areaRow == areaRow.sorted(), "area averaging must stay monotone: \(areaRow)")
    }

    @Test func scaleToLongestEdgeNeverUpscales() {
        let small = Images.smooth(width: 120, height: 80, format: .rgb8)
        #expect(Resampler.default.scale(small, longestEdge: 256) == small)
        let big = Images.smooth(width: 1200, height: 800, format: .gray8)
        let thumb = Resampler.default.scale(big, longestEdge: 256)
        #expect(thumb.width == 256 && thumb.height == 171)
    }
}
