import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// Timing of the 1/8 JPEG decode path on real photos, for profiling (callgrind, perf). Off unless
/// FG_BENCH is set, since it measures rather than checks: `FG_BENCH=1 swift test --filter Benchmark`.
@Suite("Decoding: 1/8 benchmark", .enabled(if: ProcessInfo.processInfo.environment["FG_BENCH"] != nil))
struct DecodingBenchmarkTests {
    static let photos = (1...8).map { "exif-orientation/Landscape_\($0).jpg" } + (1...8).map { "exif-orientation/Portrait_\($0).jpg" }

    @Test func oneEighthOfSixteenPhotos() throws {
        let files = try Self.photos.map { try Corpus.bytes($0) }
        let rounds = Int(ProcessInfo.processInfo.environment["FG_BENCH_ROUNDS"] ?? "") ?? 5
        let options = DecodeOptions(target: .longestEdge(200))
        let clock = ContinuousClock()
        var pixels = 0
        let elapsed = try clock.measure {
            for _ in 0..<rounds {
                for (i, bytes) in files.enumerated() {
                    let image = try ImageDecoder.decode(bytes, name: Self.photos[i], options: options)
                    #expect(image.scaleDenominator == 8)
                    pixels += image.bitmap.byteCount
                }
            }
        }
        let perDecode = elapsed / (rounds * files.count)
        print("1/8 decode of 1800x1200 photos: \(perDecode) per decode over \(rounds * files.count) decodes (\(pixels) output bytes)")
    }
}
