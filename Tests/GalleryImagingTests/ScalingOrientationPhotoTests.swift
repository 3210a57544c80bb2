import Foundation
import GalleryImaging
import Testing

/// Opt-in check of ``Bitmap/oriented(_:)`` on the corpus' real EXIF examples, whose files
/// `Landscape_N.jpg` / `Portrait_N.jpg` hold the same photo stored for orientation N:
///
///     for f in Tests/Corpus/exif-orientation/*.jpg; do djpeg -ppm "$f" > /tmp/orient/$(basename "$f" .jpg).ppm; done
///     FG_ORIENT_PPM_DIR=/tmp/orient swift test --filter ScalingOrientationPhotoTests
///
/// Each upright result must match orientation 1 closely (they are separately JPEG-encoded, so not
/// bit-exact), and clearly better than any other of the eight transforms.
@Suite("Bitmap.oriented(_:) on the corpus EXIF photos (opt-in)")
struct ScalingOrientationPhotoTests {
    static let directory = ProcessInfo.processInfo.environment["FG_ORIENT_PPM_DIR"]

    @Test(.enabled(if: directory != nil, "set FG_ORIENT_PPM_DIR to djpeg output of corpus/exif-orientation"),
          arguments: ["Landscape", "Portrait"])
    func everyStoredOrientationComesOutUpright(series: String) throws {
        let dir = try #require(Self.directory)
        // Compared at 300 px (area-averaged): fast, and it hides most of the JPEG noise.
        let shrink = { (b: Bitmap) in Resampler(filter: .area).scale(b, longestEdge: 300) }
        let upright = shrink(try ScalingPPM.read("\(dir)/\(series)_1.ppm"))
        for value in 1...8 {
            let stored = shrink(try ScalingPPM.read("\(dir)/\(series)_\(value).ppm"))
            let scores = Orientation.allCases.map { candidate -> (Orientation, Double) in
                let result = stored.oriented(candidate)
                guard result.width == upright.width && result.height == upright.height else { return (candidate, 0) }
                return (candidate, Self.psnr(result, upright))
            }.sorted { $0.1 > $1.1 }
            let expected = Orientation(exifValue: value)
            print("orientation: \(series)_\(value): \(scores[0].0) \(String(format: "%.1f", scores[0].1)) dB, "
                  + "runner-up \(scores[1].0) \(String(format: "%.1f", scores[1].1)) dB")
            #expect(scores[0].0 == expected, "\(series)_\(value)")
            #expect(scores[0].1 > 30 && scores[0].1 - scores[1].1 > 10, "\(series)_\(value)")
        }
    }

    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        var sum = 0.0
        for (x, y) in zip(a.pixels, b.pixels) {
            let d = Double(x) - Double(y)
            sum += d * d
        }
        let mse = sum / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
