import Foundation
import GalleryImaging
import Testing

/// Opt-in timing of the scaler; meaningful only in release mode:
///
///     FG_BENCH=1 swift test -c release --filter ScalingBenchmarkTests
///
/// Prints the best and median of 15 runs per case, after one warm-up run.
@Suite("Resampler timing (opt-in)")
struct ScalingBenchmarkTests {
    static let enabled = ProcessInfo.processInfo.environment["FG_BENCH"] != nil

    static let cases: [(String, Int, Int, PixelFormat, Resampler)] = [
        ("12 MP full decode", 4000, 3000, .rgb8, .default),
        ("6 MP full decode", 3000, 2000, .rgb8, .default),
        ("1/8 DCT-reduced 12 MP", 500, 375, .rgb8, .default),
        ("1/4 DCT-reduced 12 MP", 1000, 750, .rgb8, .default),
        ("6 MP RGBA (PNG)", 3000, 2000, .rgba8, .default),
        ("6 MP grey", 3000, 2000, .gray8, .default),
        ("6 MP full decode, area", 3000, 2000, .rgb8, Resampler(filter: .area)),
        ("1/8 DCT-reduced 12 MP, area", 500, 375, .rgb8, Resampler(filter: .area)),
    ]

    @Test(.enabled(if: enabled, "set FG_BENCH=1 and build with -c release"))
    func timeScalingTo256() {
        for (label, width, height, format, resampler) in Self.cases {
            let source = ScalingTestImages.smooth(width: width, height: height, format: format)
            _ = resampler.scale(source, longestEdge: 256)
            var times: [Double] = []
            var checksum = 0
            for _ in 0..<15 {
                let start = ContinuousClock.now
                let thumb = resampler.scale(source, longestEdge: 256)
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
                checksum &+= Int(thumb.pixels[thumb.pixels.count / 2])
            }
            times.sort()
            #expect(checksum > 0)
            print(String(format: "bench: %-28@ %4dx%-4d %@ -> 256: best %.2f ms, median %.2f ms",
                         label as NSString, width, height, format.rawValue as NSString, times[0], times[7]))
        }
    }
}
