import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// Delta E of 256-pixel thumbnails of profiled photos against the sRGB original's, ours (without and
/// with the profile) side by side with `vipsthumbnail` (libvips-tools, `Scripts/bootstrap --bench`):
/// first the thumbnail bitmaps (vips writing PNG), then the thumbnails as delivered, JPEG at quality 85
/// (ours as the gallery encodes them, vips' `.jpg[Q=85]`, both 4:2:0), and ours at 4:4:4 (JPEG
/// re-encoded by ImageMagick from our bitmap) to show what the chroma subsampling costs.
/// Off unless FG_BENCH is set: `Scripts/bench-color` runs it.
@Suite("Colour: Delta E against vipsthumbnail", .enabled(if: ProcessInfo.processInfo.environment["FG_BENCH"] != nil))
struct ColorBenchmarkTests {
    @Test func deltaEAgainstVipsthumbnail() throws {
        print("mean CIE76 ΔE of 8x8 block averages (grey profile: ΔL* only), 256 px, against the sRGB original's thumbnail")
        print("case                                         ours-before ours-after vips-vs-ours vips-vs-vips"
              + "  ours-jpeg  vips-jpeg ours-jpeg444 convert ms")
        var rows: [(ColorProfileTests.Case, [Double])] = []
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
                          DeltaE.meanOfBlocks(vips, vipsReference, lightnessOnly: grey),
                          DeltaE.meanOfBlocks(try Self.throughJPEG(after), reference, lightnessOnly: grey),
                          DeltaE.meanOfBlocks(try Self.vipsthumbnail(profiled, container: c.container, exportSRGB: true,
                                                                     jpeg: true), reference, lightnessOnly: grey),
                          DeltaE.meanOfBlocks(try Self.throughJPEG(after, chroma444: true), reference, lightnessOnly: grey)]
            rows.append((c, values))
            let extra = try Self.conversionTime(profiled) / .milliseconds(1)
            print(c.testDescription.padding(toLength: 44, withPad: " ", startingAt: 0)
                  + values.map { String(format: "%12.2f", $0) }.joined() + String(format: "%12.2f", extra))
        }
        Self.summary("all \(rows.count)", rows.map(\.1))
        // The set the colour goal is stated on: Adobe RGB and L*-RGB photos, JPEG and PNG.
        let goal = rows.filter { [.adobeRGB, .lstarRGB].contains($0.0.profile) && $0.0.container != .webp }
        Self.summary("Adobe RGB + L*-RGB, JPEG + PNG (\(goal.count))", goal.map(\.1))
    }

    /// The mean and the worst of each column.
    static func summary(_ label: String, _ rows: [[Double]]) {
        guard !rows.isEmpty else { return }
        let columns = (0..<rows[0].count).map { i in rows.map { $0[i] } }
        print(("mean, " + label).padding(toLength: 44, withPad: " ", startingAt: 0)
              + columns.map { String(format: "%12.2f", $0.reduce(0, +) / Double($0.count)) }.joined())
        print(("worst, " + label).padding(toLength: 44, withPad: " ", startingAt: 0)
              + columns.map { String(format: "%12.2f", $0.max() ?? .nan) }.joined())
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
    static func vipsthumbnail(_ bytes: [UInt8], container: ColorFixtures.Container, exportSRGB: Bool,
                              jpeg: Bool = false) throws -> Bitmap {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-vips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(container == .jpeg ? "in.jpg" : "in.png")
        try Data(bytes).write(to: input)
        _ = try DecodingFixtures.run("vipsthumbnail", ["-s", "256x256>"] + (exportSRGB ? ["-e", "srgb"] : [])
                                     + ["-o", folder.path + (jpeg ? "/out.jpg[Q=85]" : "/out.png"), input.path])
        let decoded = try ImageDecoder.decode(fileAt: folder.path + (jpeg ? "/out.jpg" : "/out.png"),
                                              options: DecodeOptions(readsColorProfiles: false))
        return decoded.bitmap
    }

    /// `bitmap` as the gallery delivers it: JPEG at quality 85 (our encoder, 4:2:0), decoded again;
    /// with `chroma444`, ImageMagick's encode of the same pixels at quality 85 without chroma subsampling.
    static func throughJPEG(_ bitmap: Bitmap, chroma444: Bool = false) throws -> Bitmap {
        guard chroma444 else {
            return try ImageDecoder.decode(try ImageEncoder.encodeJPEG(bitmap, quality: 85), name: "thumbnail",
                                           options: DecodeOptions(readsColorProfiles: false)).bitmap
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-444-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(try ImageEncoder.encodePNG(bitmap)).write(to: folder.appendingPathComponent("in.png"))
        _ = try DecodingFixtures.run("convert", [folder.path + "/in.png", "-quality", "85", "-sampling-factor", "1x1",
                                                 folder.path + "/out.jpg"])
        return try ImageDecoder.decode(fileAt: folder.path + "/out.jpg", options: DecodeOptions(readsColorProfiles: false)).bitmap
    }
}
