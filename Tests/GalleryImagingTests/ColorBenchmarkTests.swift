import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// Delta E of 256-pixel thumbnails of profiled photos against the sRGB original's, ours (without and
/// with the profile) side by side with `vipsthumbnail` (libvips-tools, `Scripts/bootstrap --bench`).
/// Off unless FG_BENCH is set: `Scripts/bench-color` runs it.
@Suite("Colour: Delta E against vipsthumbnail", .enabled(if: ProcessInfo.processInfo.environment["FG_BENCH"] != nil))
struct ColorBenchmarkTests {
    @Test func deltaEAgainstVipsthumbnail() throws {
        print("mean CIE76 ΔE of 8x8 block averages (grey profile: ΔL* only), 256 px, against the sRGB original's thumbnail")
        print("case                                         ours-before ours-after vips-vs-ours vips-vs-vips  convert ms")
        var sums = [Double](repeating: 0, count: 4), rows = 0
        for c in ColorProfileTests.cases {
            let original = try ColorFixtures.bytes(c.photo)
            let reference = try ColorFixtures.thumbnail(original)
            let profiled = try ColorFixtures.converted(c.photo, to: c.profile, as: c.container)
            let before = try ColorFixtures.thumbnail(profiled, readingProfiles: false)
            let after = try ColorFixtures.thumbnail(profiled)
            let grey = c.profile.isGray
            let vips = try Self.vipsthumbnail(profiled, container: c.container, exportSRGB: true)
            let vipsReference = try Self.vipsthumbnail(original, container: .jpeg, exportSRGB: false)
            let vipsVsOurs = vips.width == reference.width && vips.height == reference.height
                ? DeltaE.meanOfBlocks(vips, reference, lightnessOnly: grey) : .nan
            let values = [DeltaE.meanOfBlocks(before, reference, lightnessOnly: grey),
                          DeltaE.meanOfBlocks(after, reference, lightnessOnly: grey),
                          vipsVsOurs,
                          DeltaE.meanOfBlocks(vips, vipsReference, lightnessOnly: grey)]
            for i in 0..<4 { sums[i] += values[i] }
            rows += 1
            let extra = try Self.conversionTime(profiled) / .milliseconds(1)
            print(c.testDescription.padding(toLength: 44, withPad: " ", startingAt: 0)
                  + values.map { String(format: "%12.2f", $0) }.joined() + String(format: "%12.2f", extra))
        }
        print("mean".padding(toLength: 44, withPad: " ", startingAt: 0) + sums.map { String(format: "%12.2f", $0 / Double(rows)) }.joined())
    }

    /// What converting one thumbnail costs (the transform cached): the median of 21 conversions of
    /// the scaled bitmap.
    static func conversionTime(_ bytes: [UInt8]) throws -> Duration {
        let decoded = try ImageDecoder.decode(bytes, name: "timing", options: DecodeOptions(target: .longestEdge(256)))
        let size = targetSize(forSourceWidth: decoded.sourceWidth, height: decoded.sourceHeight, longestEdge: 256)
        let scaled = Resampler.default.scale(decoded.bitmap, width: size.width, height: size.height)
        let clock = ContinuousClock()
        let times = (0..<21).map { _ in clock.measure { _ = decoded.convertedToSRGB(scaled) } }.sorted()
        return times[times.count / 2]
    }

    /// vipsthumbnail's 256-pixel thumbnail, never enlarged, written as PNG so no JPEG loss is
    /// measured, its pixels read as sRGB. `exportSRGB` (`-e srgb`) makes it convert a profiled file;
    /// without it vipsthumbnail keeps the profile and the pixels. An untagged original goes without:
    /// `-e srgb` moves its colours (vips 8.14 imports it with its own sRGB profile and exports with
    /// another).
    static func vipsthumbnail(_ bytes: [UInt8], container: ColorFixtures.Container, exportSRGB: Bool) throws -> Bitmap {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-vips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(container == .jpeg ? "in.jpg" : "in.png")
        try Data(bytes).write(to: input)
        _ = try DecodingFixtures.run("vipsthumbnail", ["-s", "256x256>"] + (exportSRGB ? ["-e", "srgb"] : [])
                                     + ["-o", folder.path + "/out.png", input.path])
        let decoded = try ImageDecoder.decode(fileAt: folder.path + "/out.png", options: DecodeOptions(readsColorProfiles: false))
        return decoded.bitmap
    }
}
