import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// HEIC and AVIF through libheif, on the corpus' heif/ files (Tests/Corpus/heif/make.sh says how each was
/// made from a real photo): the source's look, 10- and 12-bit rounded to 8 bits, grids, the container's
/// rotation and mirroring applied once, alpha, the embedded-thumbnail fast path, and a typed error for
/// each bad file. A missing HEVC or AV1 decoder (Debian 13 ships them as plugins) fails these tests:
/// the decode throws `.unsupported` naming the plugin to install.
@Suite("Decoding: HEIC and AVIF")
struct DecodingHEIFTests {
    static func decode(_ file: String, _ options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try ImageDecoder.decode(fileAt: Corpus.path(file), options: options)
    }

    /// What make.sh encoded: Landscape_1 at 600x400 by ImageMagick, as a PNG decoded by our PNG decoder,
    /// optionally transformed by ImageMagick (`-rotate -90 -flop`, ...).
    static func source(_ transform: [String] = []) throws -> Bitmap {
        let png = try DecodingFixtures.run("convert", [try Corpus.path("exif-orientation/Landscape_1.jpg"),
                                                        "-resize", "600x400", "-strip"] + transform + ["png:-"])
        return try ImageDecoder.decode(png, name: "source").bitmap
    }

    @Test(arguments: ["heif/photo.heic", "heif/photo.avif", "heif/photo-10bit.heic", "heif/photo-10bit.avif",
                      "heif/photo-12bit.avif", "heif/photo-grid.avif"])
    func photoLooksLikeItsSource(_ file: String) throws {
        let image = try Self.decode(file)
        #expect(image.format == (file.hasSuffix(".avif") ? .avif : .heic))
        #expect(image.bitmap.width == 600 && image.bitmap.height == 400 && image.bitmap.format == .rgb8)
        #expect(image.orientation == .up && !image.usedFastPath)
        let psnr = DecodingFixtures.psnr(image.bitmap, try Self.source())
        print("\(file): PSNR \(String(format: "%.2f", psnr)) dB against its source")
        #expect(psnr > 34, "\(file): PSNR \(psnr)")
    }

    /// 10- and 12-bit samples are rounded to the nearest 8-bit level, round(v * 255 / max), checked on
    /// every value: the ramp files hold, losslessly, G = i, B = max - i and R = 7i mod (max + 1) at pixel
    /// i. A plain shift (v >> 2) gives another value for 510 of the 10-bit ramp's 3072 samples.
    @Test(arguments: [("heif/ramp-10bit.avif", 10), ("heif/ramp-12bit.avif", 12)])
    func deepSamplesAreRoundedTo8Bits(_ file: String, _ bits: Int) throws {
        let top = (1 << bits) - 1, side = bits == 10 ? 32 : 64
        let bitmap = try Self.decode(file).bitmap
        #expect(bitmap.width == side && bitmap.height == side && bitmap.format == .rgb8)
        func rounded(_ v: Int) -> UInt8 { UInt8((v * 255 + top / 2) / top) }
        var differing = 0
        for i in 0..<(side * side) {
            let (x, y) = (i % side, i / side)
            if bitmap[x, y, 0] != rounded((7 * i) % (top + 1)) { differing += 1 }
            if bitmap[x, y, 1] != rounded(i) { differing += 1 }
            if bitmap[x, y, 2] != rounded(top - i) { differing += 1 }
        }
        #expect(differing == 0, "\(file): \(differing) of \(side * side * 3) samples are not the rounded value")
    }

    /// The lossy deep files keep the look and the mean brightness of their 16-bit source.
    @Test(arguments: ["heif/photo-10bit.heic", "heif/photo-10bit.avif", "heif/photo-12bit.avif"])
    func deepPhotosKeepTheirBrightness(_ file: String) throws {
        let text = try DecodingFixtures.run("convert", [try Corpus.path("exif-orientation/Landscape_1.jpg"), "-resize", "600x400",
                                                         "-depth", "16", "-format", "%[fx:mean*255]", "info:"])
        let mean = try #require(Double(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        let bitmap = try Self.decode(file).bitmap
        var total = 0
        for y in 0..<bitmap.height { for x in 0..<bitmap.width { for c in 0..<3 { total += Int(bitmap[x, y, c]) } } }
        let decoded = Double(total) / Double(bitmap.width * bitmap.height * 3)
        #expect(abs(decoded - mean) < 0.2, "\(file): mean \(decoded) against the source's \(mean)")
    }

    /// irot 1 (90 degrees anticlockwise) then imir 0, which avifenc 0.11 writes for "top-to-bottom"
    /// mirroring, applied by libheif: the source turned and flipped by ImageMagick, not turned only
    /// nor flipped the other way.
    @Test func rotationAndMirrorAreApplied() throws {
        let image = try Self.decode("heif/photo-irot-imir.avif")
        #expect(image.bitmap.width == 400 && image.bitmap.height == 600 && image.orientation == .up)
        #expect(try ImageDecoder.probe(fileAt: Corpus.path("heif/photo-irot-imir.avif")).width == 400)
        let right = DecodingFixtures.psnr(image.bitmap, try Self.source(["-rotate", "-90", "-flip"]))
        let turned = DecodingFixtures.psnr(image.bitmap, try Self.source(["-rotate", "-90"]))
        let flopped = DecodingFixtures.psnr(image.bitmap, try Self.source(["-rotate", "-90", "-flop"]))
        #expect(right > 34 && turned < 20 && flopped < 20, "PSNR \(right) turned and flipped, \(turned) turned, \(flopped) flopped")
    }

    /// Link-U's conformance files (AOMediaCodec/av1-avif): each stores the picture turned or mirrored
    /// and marks it to be shown as the original, so all decode to kimono.avif's picture (encoded apart:
    /// about 35 dB); decoding without the transformations would not (a mirrored picture is under 20 dB).
    @Test(arguments: ["rotate90", "rotate270", "mirror-horizontal", "mirror-vertical", "mirror-vertical.rotate270"])
    func linkUTransformsShowTheOriginal(_ variant: String) throws {
        let original = try Self.decode("avif-link-u/kimono.avif").bitmap
        let image = try Self.decode("avif-link-u/kimono.\(variant).avif")
        #expect(image.orientation == .up && image.bitmap.width == 722 && image.bitmap.height == 1024)
        let psnr = DecodingFixtures.psnr(image.bitmap, original)
        #expect(psnr > 33, "kimono.\(variant): PSNR \(psnr) against kimono.avif")
        #expect(DecodingFixtures.psnr(image.bitmap.oriented(.upMirrored), original) < 20)
    }

    /// A phone's file: irot holds the rotation and the EXIF block repeats it (Orientation 6). Applying
    /// both would show the photo on its side.
    @Test func exifOrientationIsNotAppliedOnTopOfIrot() throws {
        let path = try Corpus.path("heif/exif-orientation-6.avif")
        #expect(try ImageDecoder.probe(fileAt: path).orientation == .up)
        let image = try ImageDecoder.decode(fileAt: path)
        #expect(image.orientation == .up && image.bitmap.width == 600 && image.bitmap.height == 400)
        // Landscape_6 made upright is Landscape_1.
        let psnr = DecodingFixtures.psnr(image.bitmap, try Self.source())
        #expect(psnr > 28, "PSNR \(psnr) against the upright photo")
        let thumbnail = try Thumbnailer(longestEdge: 300).render(image)
        #expect(thumbnail.width == 300 && thumbnail.height == 200)
    }

    /// Alpha survives: the lossless AVIF holds basn6a08's exact alpha, the lossy HEIC its look.
    @Test func alphaIsKept() throws {
        let png = try Self.decode("png-suite/basn6a08.png").bitmap
        let avif = try Self.decode("heif/alpha.avif").bitmap
        let heic = try Self.decode("heif/alpha.heic").bitmap
        #expect(avif.format == .rgba8 && heic.format == .rgba8)
        var alphaDifferences = 0
        for y in 0..<png.height { for x in 0..<png.width where avif[x, y, 3] != png[x, y, 3] { alphaDifferences += 1 } }
        #expect(alphaDifferences == 0)
        #expect(DecodingFixtures.psnr(avif, png) > 40 && DecodingFixtures.psnr(heic, png) > 30)
    }

    /// The embedded-thumbnail fast path: a 240x160 thumbnail item covers a 200 px target, so it is
    /// decoded instead of the primary image; a 256 px target, or the fast paths off, needs the primary.
    @Test func embeddedThumbnailIsDecodedWhenItCoversTheTarget() throws {
        let small = try Self.decode("heif/photo-thumbnail.heic", DecodeOptions(target: .longestEdge(200)))
        #expect(small.usedFastPath && small.bitmap.width == 240 && small.bitmap.height == 160)
        #expect(small.sourceWidth == 600 && small.sourceHeight == 400)
        let large = try Self.decode("heif/photo-thumbnail.heic", DecodeOptions(target: .longestEdge(256)))
        #expect(!large.usedFastPath && large.bitmap.width == 600)
        let off = try Self.decode("heif/photo-thumbnail.heic", DecodeOptions(target: .longestEdge(200), useFastPaths: false))
        #expect(!off.usedFastPath && off.bitmap.width == 600)
        let none = try Self.decode("heif/photo.heic", DecodeOptions(target: .longestEdge(200)))
        #expect(!none.usedFastPath && none.bitmap.width == 600)
        // The same 200 px thumbnail either way, up to the item's own quality: heif-enc scales it with
        // libheif's nearest-neighbour scaler and encodes it at q60 (25.6 dB here; the same photo
        // mirrored is under 15 dB).
        let thumbnailer = Thumbnailer(longestEdge: 200)
        let psnr = DecodingFixtures.psnr(thumbnailer.render(small), thumbnailer.render(off))
        #expect(psnr > 24, "PSNR \(psnr) between the thumbnails from the thumbnail item and from the primary image")
        let mirrored = try Self.decode("heif/photo-irot-imir.avif")
        let wrong = DecodingFixtures.psnr(thumbnailer.render(small), thumbnailer.render(mirrored).oriented(.right))
        #expect(wrong < 15, "PSNR \(wrong) against the photo mirrored")
    }

    /// libheif refuses a file whose ftyp names its codec's brand only as the major brand ("File does not
    /// include any supported brands"); libavif reads it, and so do we, from a copy with the brand listed.
    @Test func majorBrandOnlyIsRead() throws {
        let image = try Self.decode("heif/brands-major-only.avif")
        #expect(image.format == .avif && image.bitmap.width == 600 && image.notes.contains(.heifBrandsRepaired))
        #expect(DecodingFixtures.psnr(image.bitmap, try Self.source()) > 34)
        _ = try DecodingFixtures.run("avifdec", [try Corpus.path("heif/brands-major-only.avif"),
                                                 FileManager.default.temporaryDirectory.appendingPathComponent("fg-brands-\(UUID().uuidString).png").path])
        #expect(!(try Self.decode("heif/photo.avif").notes.contains(.heifBrandsRepaired)))
    }

    @Test func formatIsSniffedFromTheBytes() throws {
        #expect(ImageFormat.sniff(try Corpus.bytes("heif/photo.heic")) == .heic)
        #expect(ImageFormat.sniff(try Corpus.bytes("heif/photo.avif")) == .avif)
        // An MP4's ftyp is not an image; a HEIF that names only the generic 'mif1' brand is HEIC.
        let mp4: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
        #expect(ImageFormat.sniff(mp4) == nil)
        #expect(throws: DecodeError.notAnImage(name: "clip.mp4")) { try ImageDecoder.decode(mp4, name: "clip.mp4") }
        let generic: [UInt8] = [0, 0, 0, 16] + Array("ftypmif1".utf8) + [0, 0, 0, 0]
        #expect(ImageFormat.sniff(generic) == .heic)
        #expect(ImageFormat(fileExtension: "HEIF") == .heic && ImageFormat(fileExtension: "avif") == .avif)
    }

    @Test func badFilesGetTypedErrors() throws {
        func error(_ file: String) throws -> DecodeError? {
            do { _ = try Self.decode(file); return nil } catch let error as DecodeError { return error }
        }
        #expect(try error("heif/x-truncated.heic") == .truncated(name: try Corpus.path("heif/x-truncated.heic")))
        #expect(try error("heif/x-truncated-header.avif") == .truncated(name: try Corpus.path("heif/x-truncated-header.avif")))
        guard case .corrupt(let name, _)? = try error("heif/x-corrupt.heic") else {
            Issue.record("x-corrupt.heic: \(String(describing: try error("heif/x-corrupt.heic")))")
            return
        }
        #expect(name.hasSuffix("x-corrupt.heic"))
        guard case .tooLarge(_, 20000, 20000, _)? = try error("heif/x-huge.avif") else {
            Issue.record("x-huge.avif: \(String(describing: try error("heif/x-huge.avif")))")
            return
        }
        // The pixel guard is read from the header, before anything is decoded.
        #expect(throws: DecodeError.self) {
            try ImageDecoder.probe(fileAt: Corpus.path("heif/photo.avif"), options: DecodeOptions(maxPixels: 100_000))
        }
    }

    /// Every prefix of a small AVIF and HEIC either decodes or fails with a DecodeError: no crash.
    @Test(arguments: ["heif/alpha.avif", "heif/alpha.heic"])
    func everyPrefixFailsCleanly(_ file: String) throws {
        let bytes = try Corpus.bytes(file)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            do {
                _ = try ImageDecoder.decode(Array(bytes[..<length]), name: file)
            } catch {
                #expect(error.name == file)
            }
        }
    }

    /// A saturated photo converted to Display P3 and declared so by an ICC profile (avifenc carries the
    /// PNG's iCCP over) or by nclx code points (primaries 12, sRGB's transfer 13): the thumbnail,
    /// converted to sRGB, looks like the sRGB photo's; read as sRGB it would not.
    @Test(arguments: ["icc", "nclx"])
    func displayP3IsConvertedToSRGB(_ declaration: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (png, avif) = (folder.appendingPathComponent("p3.png").path, folder.appendingPathComponent("p3.avif").path)
        let photo = try ColorFixtures.path("demo:colorful-cups.jpg")
        _ = try DecodingFixtures.run("convert", [photo, "-profile", ColorFixtures.srgbProfilePath,
                                                 "-profile", ColorFixtures.Profile.displayP3.path, png])
        let how = declaration == "icc" ? [] : ["--ignore-icc", "--cicp", "12/13/6"]
        _ = try DecodingFixtures.run("avifenc", ["-s", "8", "--min", "4", "--max", "12"] + how + [png, avif])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: avif)))
        let image = try ImageDecoder.decode(bytes, name: avif)
        if declaration == "icc" {
            guard case .icc? = image.colorProfile else { Issue.record("profile \(String(describing: image.colorProfile))"); return }
        } else {
            #expect(image.colorProfile.map { "\($0)" } == "nclx (primaries 12, transfer 13)")
        }
        let reference = try ColorFixtures.thumbnail(try ColorFixtures.bytes("demo:colorful-cups.jpg"))
        let after = try ColorFixtures.thumbnail(bytes)
        let before = try ColorFixtures.thumbnail(bytes, readingProfiles: false)
        let (deltaAfter, deltaBefore) = (DeltaE.meanOfBlocks(after, reference), DeltaE.meanOfBlocks(before, reference))
        print("ΔE76 AVIF, Display P3 by \(declaration): \(String(format: "%.2f", deltaBefore)) unconverted, \(String(format: "%.2f", deltaAfter)) converted")
        #expect(deltaAfter <= 1.5 && deltaBefore > 2, "mean ΔE \(deltaAfter) converted, \(deltaBefore) unconverted")
    }
}
