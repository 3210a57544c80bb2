import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// What happens around the conversion: sRGB-tagged photos cost nothing, broken or mismatched
/// profiles are ignored with a note (never a failed photo), PNG's sRGB and gAMA + cHRM chunks.
@Suite("Colour: profile handling")
struct ColorHandlingTests {
    static let photo = "exif-orientation/Landscape_1.jpg"

    /// Photos carrying an sRGB profile (LittleCMS's, attached here; sRGB2014 in a corpus PNG) are
    /// recognised as sRGB: no transform, the same pixels.
    @Test func srgbProfileNeedsNoConversion() throws {
        let srgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ColorFixtures.srgbProfilePath)))
        let tagged = ColorFixtures.withICCSegment(try Corpus.bytes(Self.photo), profile: srgb)
        let png = try Corpus.bytes("libjpeg-turbo/vgl_5674_0098.png")
        for (name, bytes) in [("lcms sRGB", tagged), ("sRGB2014", png)] {
            let decoded = try ImageDecoder.decode(bytes, name: name)
            guard case .icc = decoded.colorProfile else { Issue.record("\(name): no profile read"); continue }
            #expect(decoded.isSRGB, "\(name)")
            #expect(decoded.notes.isEmpty, "\(name): \(decoded.notes)")
            #expect(try ColorFixtures.thumbnail(bytes) == ColorFixtures.thumbnail(bytes, readingProfiles: false))
        }
    }

    /// The corpus' 1x1 grey JPEG carrying an RGB profile (sRGB2014): the profile does not fit.
    @Test func greyJPEGWithAnRGBProfileKeepsItsPixels() throws {
        let bytes = try Corpus.bytes("jpeg-made/jpg-srgb-icc.jpg")
        let decoded = try ImageDecoder.decode(bytes, name: "grey+sRGB2014")
        #expect(decoded.isSRGB)
        #expect(decoded.notes.count == 1)
        #expect(decoded.bitmap == (try ImageDecoder.decode(bytes, name: "x", options: DecodeOptions(readsColorProfiles: false)).bitmap))
    }

    @Test(arguments: [
        ("garbage", [UInt8](repeating: 0x5A, count: 600)),
        ("a header and nothing else", [UInt8](repeating: 0, count: 128)),
    ])
    func unreadableProfileIsIgnoredWithANote(_ label: String, _ profile: [UInt8]) throws {
        let bytes = ColorFixtures.withICCSegment(try Corpus.bytes(Self.photo), profile: profile)
        let decoded = try ImageDecoder.decode(bytes, name: label)
        #expect(decoded.colorProfile == .icc(profile))
        #expect(decoded.isSRGB)
        #expect(decoded.notes.count == 1)
        guard case .colorProfileIgnored(let reason)? = decoded.notes.first else { return }
        #expect(reason.contains("unreadable"), "\(reason)")
        #expect(try ColorFixtures.thumbnail(bytes) == ColorFixtures.thumbnail(Corpus.bytes(Self.photo)))
    }

    /// A grey profile on a colour photo (and the reverse) does not fit its pixels.
    @Test func profileOfTheWrongKindIsIgnoredWithANote() throws {
        let rgb = ColorFixtures.withICCSegment(try Corpus.bytes(Self.photo), profile: try ColorFixtures.Profile.grayGamma18.bytes)
        let grey = ColorFixtures.withICCSegment(try Corpus.bytes("derived/testorig-grayscale.jpg"),
                                                profile: try ColorFixtures.Profile.adobeRGB.bytes)
        for (name, bytes) in [("rgb+grey profile", rgb), ("grey+rgb profile", grey)] {
            let decoded = try ImageDecoder.decode(bytes, name: name)
            #expect(decoded.isSRGB, "\(name)")
            #expect(decoded.notes.count == 1, "\(name): \(decoded.notes)")
        }
    }

    /// ICC_PROFILE segments whose numbering is broken (one of two segments) are not a profile.
    @Test func brokenSegmentChainIsNoProfile() throws {
        var bytes = ColorFixtures.withICCSegment(try Corpus.bytes(Self.photo), profile: try ColorFixtures.Profile.adobeRGB.bytes)
        bytes[2 + 4 + 13] = 2  // "1 of 2"
        let decoded = try ImageDecoder.decode(bytes, name: "half a profile")
        #expect(decoded.colorProfile == nil)
        #expect(decoded.isSRGB)
    }

    @Test func readingProfilesCanBeTurnedOff() throws {
        let profiled = try ColorFixtures.converted(Self.photo, to: .adobeRGB, as: .jpeg)
        let decoded = try ImageDecoder.decode(profiled, name: "off", options: DecodeOptions(readsColorProfiles: false))
        #expect(decoded.colorProfile == nil)
        #expect(decoded.isSRGB)
    }

    /// PNG without iCCP: gAMA + cHRM describe Adobe RGB as well as its profile does.
    @Test func pngGammaAndChromaticitiesConvert() throws {
        let reference = try ColorFixtures.thumbnail(Corpus.bytes(Self.photo))
        let adobe = try ColorFixtures.converted(Self.photo, to: .adobeRGB, as: .png)
        let gAMA = PNGChunks.uint32(UInt32((256.0 / 563.0 * 100_000).rounded()))
        let cHRM = [0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06].flatMap { PNGChunks.uint32(UInt32(($0 * 100_000).rounded())) }
        let png = PNGChunks.replacingColorChunks(adobe, with: [("gAMA", gAMA), ("cHRM", cHRM)])
        let decoded = try ImageDecoder.decode(png, name: "gAMA+cHRM")
        guard case .pngGamma(let gamma, let chromaticities)? = decoded.colorProfile else {
            Issue.record("read \(String(describing: decoded.colorProfile))")
            return
        }
        #expect(abs(gamma - 0.45469) < 0.0001)
        #expect(chromaticities?.count == 8)
        let after = try ColorFixtures.thumbnail(png), before = try ColorFixtures.thumbnail(png, readingProfiles: false)
        let (deltaAfter, deltaBefore) = (DeltaE.meanOfBlocks(after, reference), DeltaE.meanOfBlocks(before, reference))
        print("ΔE76 PNG gAMA+cHRM (Adobe RGB): \(deltaBefore) without, \(deltaAfter) with")
        #expect(deltaAfter <= 1.5)
        #expect(deltaBefore > 2)
    }

    /// An sRGB chunk, or gAMA 1/2.2 alone, means sRGB: nothing to convert.
    @Test func pngSRGBChunkAndPlainGammaNeedNoConversion() throws {
        let plain = try DecodingFixtures.run("convert", [Corpus.path("libjpeg-turbo/testorig.jpg"), "png:-"])
        let srgb = PNGChunks.replacingColorChunks(plain, with: [("sRGB", [0])])
        let gamma = PNGChunks.replacingColorChunks(plain, with: [("gAMA", PNGChunks.uint32(45455))])
        let a = try ImageDecoder.decode(srgb, name: "sRGB"), b = try ImageDecoder.decode(gamma, name: "gAMA")
        #expect(a.colorProfile == .sRGB)
        #expect(b.colorProfile == .pngGamma(0.45455, chromaticities: nil))
        #expect(a.isSRGB && b.isSRGB)
    }
}
