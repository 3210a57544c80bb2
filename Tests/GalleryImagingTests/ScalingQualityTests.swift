import Foundation
import GalleryImaging
import Testing

/// Opt-in quality run over real photographs (see the report of the imaging-scale branch):
///
///     for f in .bench/photos/*.jpg; do djpeg -ppm "$f" > /tmp/q/$(basename "$f" .jpg).ppm; done
///     FG_SCALE_PPM_DIR=/tmp/q swift test -c release --filter ScalingQualityTests
///     Scripts/psnr.py --reference SRC WxH REF; Scripts/psnr.py /tmp/q/NAME.fg.ppm REF
///
/// Every `NAME.ppm` (no other dot in the name) in the directory is scaled to a 256 px longest edge (or
/// `FG_SCALE_EDGE`) with the default Lanczos3 resampler and written as `NAME.fg.ppm`, and with the
/// area filter as `NAME.fg-area.ppm`.
@Suite("Resampler on real photographs (opt-in)")
struct ScalingQualityTests {
    static let directory = ProcessInfo.processInfo.environment["FG_SCALE_PPM_DIR"]

    @Test(.enabled(if: directory != nil, "set FG_SCALE_PPM_DIR to a folder of full-size PPMs"))
    func scaleEveryPPM() throws {
        let dir = try #require(Self.directory)
        let edge = Int(ProcessInfo.processInfo.environment["FG_SCALE_EDGE"] ?? "") ?? 256
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
            .filter { $0.hasSuffix(".ppm") && !$0.dropLast(4).contains(".") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let source = try ScalingPPM.read("\(dir)/\(name)")
            let stem = String(name.dropLast(4))
            for (suffix, resampler) in [("fg", Resampler.default), ("fg-area", Resampler(filter: .area))] {
                let start = ContinuousClock.now
                let thumb = resampler.scale(source, longestEdge: edge)
                let elapsed = ContinuousClock.now - start
                #expect(max(thumb.width, thumb.height) == min(edge, max(source.width, source.height)))
                try ScalingPPM.write(thumb, to: "\(dir)/\(stem).\(suffix).ppm")
                print("quality: \(stem) \(source.width)x\(source.height) -> \(thumb.width)x\(thumb.height) "
                      + "\(suffix) \(elapsed)")
            }
        }
    }
}
