import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// CMYK JPEGs with a profile convert through it (as LittleCMS's own `jpgicc` does); without one
/// they keep the naive conversion.
@Suite("Colour: CMYK through its profile")
struct ColorCMYKTests {
    /// A photo separated to CMYK by ImageMagick (Adobe-inverted, with APP14), the test CMYK profile
    /// attached, and the sRGB reference `jpgicc` makes from it.
    static func files() throws -> (cmyk: [UInt8], reference: [UInt8]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-cmyk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try DecodingFixtures.run("convert", [ColorFixtures.path("demo:colorful-cups.jpg"), "-resize", "800x",
                                                         "-colorspace", "CMYK", "-quality", "95", "jpg:-"])
        let cmyk = ColorFixtures.withICCSegment(plain, profile: try ColorFixtures.profile(ColorFixtures.Profile.cmykWarm))
        let input = folder.appendingPathComponent("cmyk.jpg"), output = folder.appendingPathComponent("srgb.jpg")
        try Data(cmyk).write(to: input)
        _ = try DecodingFixtures.run("jpgicc", ["-q95", input.path, output.path])
        return (cmyk, [UInt8](try Data(contentsOf: output)))
    }

    @Test func cmykWithAProfileConvertsThroughIt() throws {
        let (cmyk, referenceFile) = try Self.files()
        let decoded = try ImageDecoder.decode(cmyk, name: "cmyk")
        guard case .icc = decoded.colorProfile else { Issue.record("no profile read"); return }
        #expect(decoded.bitmap.format == .rgb8)
        #expect(decoded.isSRGB, "converted while decoding: nothing left for the thumbnail")
        #expect(decoded.notes.isEmpty, "\(decoded.notes)")

        let reference = try ColorFixtures.thumbnail(referenceFile)
        let after = try ColorFixtures.thumbnail(cmyk), before = try ColorFixtures.thumbnail(cmyk, readingProfiles: false)
        let (deltaAfter, deltaBefore) = (DeltaE.meanOfBlocks(after, reference), DeltaE.meanOfBlocks(before, reference))
        print("ΔE76 CMYK photo against jpgicc's sRGB: \(deltaBefore) naive, \(deltaAfter) through the profile")
        #expect(deltaAfter <= 1.5)
        #expect(deltaBefore > 2)
    }

    /// An RGB profile on a CMYK file does not fit: the naive conversion, with a note.
    @Test func cmykWithAnRGBProfileKeepsTheNaiveConversion() throws {
        let plain = try Corpus.bytes("jpeg-made/jpg-cmyk-1.jpg")
        let tagged = ColorFixtures.withICCSegment(plain, profile: try ColorFixtures.Profile.adobeRGB.bytes)
        let decoded = try ImageDecoder.decode(tagged, name: "cmyk+rgb profile")
        #expect(decoded.notes.count == 1)
        #expect(decoded.bitmap == (try ImageDecoder.decode(plain, name: "plain").bitmap))
    }
}
