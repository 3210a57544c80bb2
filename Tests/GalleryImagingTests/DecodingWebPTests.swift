import GalleryImaging
import GalleryTestSupport
import Testing

/// WebP through libwebp, on the corpus' webp/ files (Tests/Corpus/webp/make.sh says how each was made):
/// exact pixels for lossless files, the source's look for lossy ones, the codec's own reduction, the
/// container's EXIF orientation, an animation's first frame, and a typed error for each bad file.
@Suite("Decoding: WebP")
struct DecodingWebPTests {
    static func decode(_ file: String, _ options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try ImageDecoder.decode(fileAt: Corpus.path(file), options: options)
    }

    @Test func losslessIsExactlyItsSource() throws {
        let webp = try Self.decode("webp/lossless.webp")
        let png = try Self.decode("png-suite/basn2c08.png")
        #expect(webp.format == .webp && webp.bitmap.format == .rgb8)
        #expect(DecodingFixtures.differingBytes(webp.bitmap, png.bitmap) == 0)
    }

    /// libwebp's own `dwebp -pam` (RGBA) is the reference; the source PNG is only close (cwebp's PNG
    /// reader does not hand libwebp PngSuite's exact values).
    static func dwebp(_ webp: String) throws -> Bitmap {
        let bytes = try DecodingFixtures.run("dwebp", ["-quiet", "-pam", webp, "-o", "-"])
        let header = Array("ENDHDR\n".utf8)
        let end = try #require((0..<bytes.count).first { Array(bytes[$0..<min($0 + header.count, bytes.count)]) == header })
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        func field(_ name: String) throws -> Int {
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") })
            return try #require(Int(line.dropFirst(name.count + 1)))
        }
        let (w, h) = (try field("WIDTH"), try field("HEIGHT"))
        #expect(try field("DEPTH") == 4)
        return Bitmap(width: w, height: h, format: .rgba8, pixels: Array(bytes[(end + header.count)...]))
    }

    @Test func losslessAlphaIsExactlyWhatLibwebpDecodes() throws {
        let path = try Corpus.path("webp/lossless-alpha.webp")
        let webp = try ImageDecoder.decode(fileAt: path).bitmap
        #expect(webp.format == .rgba8)
        #expect(DecodingFixtures.differingBytes(webp, try Self.dwebp(path)) == 0)
        let png = try Self.decode("png-suite/basn6a08.png").bitmap
        #expect(DecodingFixtures.psnr(webp, png) > 40)
    }

    @Test func lossyLooksLikeItsSource() throws {
        let webp = try Self.decode("webp/lossy.webp").bitmap
        let jpeg = try Self.decode("libjpeg-turbo/testorig.jpg").bitmap
        #expect(DecodingFixtures.psnr(webp, jpeg) > 30)
        let alpha = try Self.decode("webp/lossy-alpha.webp").bitmap
        let png = try Self.decode("png-suite/basn6a08.png").bitmap
        for y in 0..<png.height { for x in 0..<png.width { #expect(alpha[x, y, 3] == png[x, y, 3]) } }
    }

    /// A 256 px thumbnail of a 1800x1200 photo needs 1/4 of it: libwebp reduces to 450x300, and that
    /// looks like the full decode reduced by the resampler.
    @Test func reducesInTheCodecAsFarAsTheTargetAllows() throws {
        let reduced = try Self.decode("webp/photo-1800x1200.webp", DecodeOptions(target: .longestEdge(256)))
        #expect(reduced.scaleDenominator == 4 && reduced.usedFastPath)
        #expect(reduced.bitmap.width == 450 && reduced.bitmap.height == 300)
        #expect(reduced.sourceWidth == 1800 && reduced.sourceHeight == 1200)
        let full = try Self.decode("webp/photo-1800x1200.webp")
        #expect(full.scaleDenominator == 1 && full.bitmap.width == 1800)
        let reference = Resampler().scale(full.bitmap, width: 450, height: 300)
        #expect(DecodingFixtures.psnr(reduced.bitmap, reference) > 30)
        let plain = try Self.decode("webp/photo-1800x1200.webp", DecodeOptions(target: .longestEdge(256), useFastPaths: false))
        #expect(plain.scaleDenominator == 1)
        let thumbnail = try Thumbnailer(longestEdge: 256).render(ImageDecoder.decode(fileAt: Corpus.path("webp/photo-1800x1200.webp")))
        #expect(thumbnail.width == 256 && thumbnail.height == 171)
    }

    @Test func orientationComesFromTheEXIFChunk() throws {
        let file = "webp/exif-orientation-6.webp"
        #expect(try ImageDecoder.probe(fileAt: Corpus.path(file)).orientation == Orientation(exifValue: 6))
        let thumbnail = try Thumbnailer(longestEdge: 90).render(ImageDecoder.decode(fileAt: Corpus.path(file)))
        #expect(thumbnail.width == 90 && thumbnail.height == 60, "turned upright: 360x240 shown")
        // The same chunk without the JPEG-style "Exif\0\0" prefix (plain TIFF, as the WebP spec has it).
        let plain = try Self.withoutExifPrefix(Corpus.bytes(file))
        #expect(try ImageDecoder.probe(plain, name: "plain-exif.webp").orientation == Orientation(exifValue: 6))
    }

    /// The first frame covers the canvas, so it shows as that frame alone: webpmux takes it out and
    /// dwebp decodes it as the reference.
    @Test func animationGivesItsFirstFrame() throws {
        let path = try Corpus.path("webp/animated.webp")
        let first = try ImageDecoder.decode(fileAt: path)
        // Opaque frames: the container sets no alpha flag, so the canvas comes out RGB.
        #expect(first.bitmap.width == 32 && first.bitmap.height == 32 && first.bitmap.format == .rgb8)
        let folder = try TempDirectory(prefix: "anim")
        for frame in ["1", "2"] {
            _ = try DecodingFixtures.run("webpmux", ["-get", "frame", frame, path, "-o", folder.file("f\(frame).webp")])
        }
        let one = try Self.dwebp(folder.file("f1.webp")), two = try Self.dwebp(folder.file("f2.webp"))
        var same = 0, differentFromTwo = 0
        for y in 0..<32 {
            for x in 0..<32 {
                #expect(one[x, y, 3] == 255)
                for c in 0..<3 {
                    if first.bitmap[x, y, c] == one[x, y, c] { same += 1 }
                    if first.bitmap[x, y, c] != two[x, y, c] { differentFromTwo += 1 }
                }
            }
        }
        #expect(same == 32 * 32 * 3 && differentFromTwo > 1000)
        // And that frame is the PNG it was made from (basn2c08, lossless).
        #expect(DecodingFixtures.differingBytes(first.bitmap, try Self.decode("png-suite/basn2c08.png").bitmap) == 0)
        // Reduction does not apply to an animation's canvas; the resampler does it.
        #expect(try Self.decode("webp/animated.webp", DecodeOptions(target: .longestEdge(4))).scaleDenominator == 1)
    }

    @Test func badFilesGiveTypedErrorsNamingThem() throws {
        func error(_ file: String, _ options: DecodeOptions = DecodeOptions()) throws -> DecodeError? {
            let path = try Corpus.path(file)
            do throws(DecodeError) { _ = try ImageDecoder.decode(fileAt: path, options: options); return nil } catch {
                #expect(error.name == path)
                return error
            }
        }
        #expect(try error("webp/x-truncated.webp") == .truncated(name: try Corpus.path("webp/x-truncated.webp")))
        guard case .corrupt = try error("webp/x-bitstream.webp") else { Issue.record("bitstream: not corrupt"); return }
        guard case .tooLarge(_, 16384, 16384, _) = try error("webp/x-huge-canvas.webp") else {
            Issue.record("huge canvas: not tooLarge 16384x16384"); return
        }
        guard case .tooLarge(_, 227, 149, _) = try error("webp/lossy.webp", DecodeOptions(maxPixels: 1000)) else {
            Issue.record("maxPixels not applied"); return
        }
        guard case .tooLarge = try error("webp/photo-1800x1200.webp", DecodeOptions(maxDecodedBytes: 100_000)) else {
            Issue.record("maxDecodedBytes not applied"); return
        }
    }

    /// Rewrites the file's EXIF chunk (its last) without the 6-byte prefix, fixing the chunk and RIFF sizes.
    static func withoutExifPrefix(_ bytes: [UInt8]) throws -> [UInt8] {
        let tag = Array("EXIF".utf8)
        let at = try #require((0..<(bytes.count - 14)).last { Array(bytes[$0..<($0 + 4)]) == tag })
        #expect(Array(bytes[(at + 8)..<(at + 14)]) == Array("Exif\0\0".utf8))
        let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
        let payload = Array(bytes[(at + 14)..<(at + 8 + size)])
        var out = Array(bytes[..<at]) + tag + le32(payload.count) + payload
        if payload.count % 2 == 1 { out.append(0) }
        out.replaceSubrange(4..<8, with: le32(out.count - 8))
        return out
    }

    static func le32(_ n: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
}
