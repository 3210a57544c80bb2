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

    /// DC-only path against the plain 1/8 path on progressive photos.
    @Test func dcOnlyAgainstPlain() throws {
        let inputs: [(String, [UInt8])] = [
            ("3600x2400 4:2:0 progressive", try DecodingFixtures.largePhoto(progressive: true)),
            ("1800x1200 4:2:0 jpegtran -progressive", try DecodingFixtures.progressiveLandscape()),
            ("1800x1200 grey DC-first", try DecodingFixtures.progressiveLandscapeGrey(dcFirst: true)),
            ("1800x1200 4:4:4 DC-first", try DecodingFixtures.progressiveLandscape444(dcFirst: true)),
        ]
        let clock = ContinuousClock()
        for (name, bytes) in inputs {
            var scans = (0, 0)
            func time(_ fast: Bool) throws -> Duration {
                let options = DecodeOptions(target: .longestEdge(200), useFastPaths: fast)
                return try clock.measure {
                    for _ in 0..<10 {
                        let image = try ImageDecoder.decode(bytes, name: name, options: options)
                        if fast { scans.0 = image.scansRead ?? 0 } else { scans.1 = image.scansRead ?? 0 }
                    }
                } / 10
            }
            let (plain, fast) = (try time(false), try time(true))
            print("\(name): plain \(plain) (\(scans.1) scans), DC-only \(fast) (\(scans.0) scans)")
        }
    }
}
