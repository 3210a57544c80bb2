import Foundation
import GalleryImaging
import Testing

/// Opt-in timing of the scaler; meaningful only in release mode:
///
///     FG_BENCH=1 swift test -c release --filter ScalingBenchmarkTests
///
/// `FG_BENCH_ONLY=500x375` runs only the matching cases, 300 times (for `perf record`).
/// Prints the best and median of 15 runs per case, after one warm-up run, as thread CPU time
/// (steady on a busy shared machine, where wall time mostly measures the other processes) and
/// as wall time.
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
        let only = ProcessInfo.processInfo.environment["FG_BENCH_ONLY"] // e.g. "500x375"
        for (label, width, height, format, resampler) in Self.cases
        where only.map({ "\(width)x\(height) \(label)".contains($0) }) ?? true {
            let source = ScalingTestImages.smooth(width: width, height: height, format: format)
            _ = resampler.scale(source, longestEdge: 256)
            var cpu: [Double] = [], wall: [Double] = []
            var checksum = 0
            for _ in 0..<(only == nil ? 15 : 300) {
                let (cpuStart, wallStart) = (Self.threadCPUms(), Self.wallms())
                let thumb = resampler.scale(source, longestEdge: 256)
                cpu.append(Self.threadCPUms() - cpuStart)
                wall.append(Self.wallms() - wallStart)
                checksum &+= Int(thumb.pixels[thumb.pixels.count / 2])
            }
            cpu.sort()
            wall.sort()
            #expect(checksum > 0)
            print(String(format: "bench: %-28@ %4dx%-4d %@ -> 256: cpu best %.2f ms, median %.2f ms; wall median %.2f ms",
                         label as NSString, width, height, format.rawValue as NSString, cpu[0], cpu[cpu.count / 2], wall[wall.count / 2]))
        }
    }

    static func threadCPUms() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }

    static func wallms() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }
}
