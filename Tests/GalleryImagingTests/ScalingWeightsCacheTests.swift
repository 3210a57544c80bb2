@testable import GalleryImaging
import Testing

/// The filter taps kept per (input size, extent, output size, filter), and the streaming scaler that reads them.
@Suite("Resample weights cache")
struct ScalingWeightsCacheTests {
    typealias Images = ScalingTestImages

    static func same(_ a: ResampleWeights, _ b: ResampleWeights) -> Bool {
        guard a.outputSize == b.outputSize, a.stride == b.stride, a.ringRows == b.ringRows else { return false }
        for i in 0..<a.outputSize {
            guard a.first[i] == b.first[i], a.count[i] == b.count[i] else { return false }
            for k in 0..<a.count[i] where a.taps(of: i)[k] != b.taps(of: i)[k] { return false }
        }
        return true
    }

    @Test(arguments: ResampleFilter.allCases)
    func aHitIsTheSameTapsAsComputingThemAgain(filter: ResampleFilter) {
        let cache = ResampleWeightsCache(capacity: 8)
        let first = cache.weights(inputSize: 350, inputExtent: 350, outputSize: 256, filter: filter)
        let again = cache.weights(inputSize: 350, inputExtent: 350, outputSize: 256, filter: filter)
        #expect(first === again)
        #expect(cache.counts == (hits: 1, misses: 1))
        let fresh = ResampleWeights(inputSize: 350, inputExtent: 350, outputSize: 256, filter: filter)
        #expect(Self.same(again, fresh))
    }

    @Test func everyPartOfTheKeyCounts() {
        let cache = ResampleWeightsCache(capacity: 16)
        let base = cache.weights(inputSize: 300, inputExtent: 300, outputSize: 100, filter: .lanczos3)
        // A box shrink can leave a partial last sample: same sample count, another extent, other taps.
        let extent = cache.weights(inputSize: 300, inputExtent: 299.5, outputSize: 100, filter: .lanczos3)
        let output = cache.weights(inputSize: 300, inputExtent: 300, outputSize: 101, filter: .lanczos3)
        let filter = cache.weights(inputSize: 300, inputExtent: 300, outputSize: 100, filter: .area)
        let input = cache.weights(inputSize: 301, inputExtent: 300, outputSize: 100, filter: .lanczos3)
        #expect(cache.count == 5)
        #expect(cache.counts == (hits: 0, misses: 5))
        for other in [extent, output, filter, input] { #expect(other !== base) }
        #expect(Self.same(extent, ResampleWeights(inputSize: 300, inputExtent: 299.5, outputSize: 100, filter: .lanczos3)))
        #expect(!Self.same(extent, base))
    }

    @Test func staysWithinItsCapacityDroppingTheLeastRecentlyUsed() {
        let cache = ResampleWeightsCache(capacity: 3)
        let kept = cache.weights(inputSize: 10, inputExtent: 10, outputSize: 5, filter: .lanczos3)
        for size in 11...40 {
            _ = cache.weights(inputSize: size, inputExtent: Double(size), outputSize: 5, filter: .lanczos3)
            // Used again between the others: never the oldest, so never dropped.
            #expect(cache.weights(inputSize: 10, inputExtent: 10, outputSize: 5, filter: .lanczos3) === kept)
            #expect(cache.count <= 3)
        }
        let (hits, misses) = cache.counts
        #expect(hits == 30 && misses == 31)
        // 11 was dropped long ago: asking again computes it.
        _ = cache.weights(inputSize: 11, inputExtent: 11, outputSize: 5, filter: .lanczos3)
        #expect(cache.counts.misses == 32)
    }

    /// Lanczos taps are made by carrying the kernel's sines from one tap to the next: each must still be the
    /// kernel at that tap, normalised, as `lanczos(_:)` gives it there. 144 -> 112 puts a tap 1e-15 from an
    /// output's centre, where the carried sines are as small as their error (a weight came out 0.13 off
    /// before that tap was computed directly); the others are reductions with and without a partial last
    /// sample, and an enlargement.
    @Test(arguments: [(144, 144.0, 112), (193, 192.5, 150), (300, 299.5, 100), (1000, 999.25, 256), (820, 820.0, 97),
                      (37, 37.0, 36), (10, 10.0, 37)])
    func lanczosTapsAreTheKernelAtEachTap(input: Int, extent: Double, output: Int) {
        let w = ResampleWeights(inputSize: input, inputExtent: extent, outputSize: output, filter: .lanczos3)
        let scale = extent / Double(output), filterScale = max(scale, 1)
        var worst = 0.0
        for i in 0..<output {
            let center = (Double(i) + 0.5) * scale
            let kernel = (0..<w.count[i]).map { k in
                ResampleFilter.lanczos3.lanczos((Double(w.first[i] + k) + 0.5 - center) / filterScale)
            }
            let sum = kernel.reduce(0, +)
            for k in 0..<w.count[i] { worst = max(worst, abs(Double(w.taps(of: i)[k]) - kernel[k] / sum)) }
        }
        #expect(worst < 1e-7, "\(input) (\(extent)) -> \(output): a tap \(worst) from the kernel's value")
    }

    /// The ring of horizontally filtered rows is deep enough for every output row of every shape,
    /// including upscales (several outputs share their first sample) and trimmed zero taps.
    @Test func theRingHoldsEveryRowAnOutputNeeds() {
        for filter in ResampleFilter.allCases {
            for (input, output) in [(350, 160), (219, 160), (10, 37), (1, 7), (300, 1), (5, 3), (1000, 999), (64, 12)] {
                let w = ResampleWeights(inputSize: input, inputExtent: Double(input), outputSize: output, filter: filter)
                var produced = 0
                for i in 0..<output {
                    produced = max(produced, w.first[i] + w.count[i])
                    #expect(w.count[i] >= 1 && w.first[i] >= 0 && w.first[i] + w.count[i] <= input)
                    // Rows produced - ringRows ..< produced are in the ring: all of this output's must be.
                    #expect(w.first[i] >= produced - w.ringRows, "\(filter) \(input) -> \(output) at \(i)")
                }
                #expect(w.ringRows <= max(input, 1))
            }
        }
    }

    /// The streaming scaler against a plain one on the same taps (whole intermediate image, Double sums):
    /// at most one level apart (rounding of Float sums), for the shapes of the Resampler tests.
    @Test(arguments: [PixelFormat.gray8, .rgb8])
    func streamingMatchesAPlainSeparableFilter(format: PixelFormat) {
        let shapes = [(64, 48, 16, 12), (640, 480, 256, 192), (350, 219, 256, 160), (10, 10, 37, 23), (1, 50, 1, 7),
                      (50, 1, 9, 1), (7, 5, 7, 2), (300, 200, 1, 1)]
        for (w, h, tw, th) in shapes {
            let source = Images.make(width: w, height: h, format: format) { x, y, c in
                UInt8(truncatingIfNeeded: (x &* 73) ^ (y &* 151) ^ (c &* 29))
            }
            let out = ResampleJob(source: source, width: tw, height: th, boxX: 1, boxY: 1, filter: .lanczos3).run()
            let reference = Self.plain(source, width: tw, height: th)
            let worst = zip(out.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(format) \(w)x\(h) -> \(tw)x\(th): off by \(worst)")
        }
    }

    static func plain(_ source: Bitmap, width: Int, height: Int) -> [UInt8] {
        let n = source.format.channels
        let hw = ResampleWeights(inputSize: source.width, inputExtent: Double(source.width), outputSize: width, filter: .lanczos3)
        let vw = ResampleWeights(inputSize: source.height, inputExtent: Double(source.height), outputSize: height, filter: .lanczos3)
        var mid = [Double](repeating: 0, count: width * n * source.height)
        for y in 0..<source.height {
            for x in 0..<width {
                for c in 0..<n {
                    var sum = 0.0
                    for k in 0..<hw.count[x] { sum += Double(source[hw.first[x] + k, y, c]) * Double(hw.taps(of: x)[k]) }
                    mid[(y * width + x) * n + c] = sum
                }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * n)
        for y in 0..<height {
            for i in 0..<(width * n) {
                var sum = 0.0
                for k in 0..<vw.count[y] { sum += mid[(vw.first[y] + k) * width * n + i] * Double(vw.taps(of: y)[k]) }
                out[y * width * n + i] = UInt8(min(max(sum + 0.5, 0), 255))
            }
        }
        return out
    }

    /// Many threads scaling photos of a few sizes share the cache and get the same pixels as one thread.
    @Test func concurrentScalingGivesTheSamePixels() async {
        let sources = [(350, 219), (219, 350), (400, 300)].map { Images.smooth(width: $0.0, height: $0.1, format: .rgb8) }
        let expected = sources.map { Resampler.default.scale($0, longestEdge: 128).pixels }
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<48 {
                group.addTask { Resampler.default.scale(sources[i % 3], longestEdge: 128).pixels == expected[i % 3] }
            }
            for await same in group { #expect(same) }
        }
    }
}
