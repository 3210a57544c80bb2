import GalleryImaging
import GalleryTestSupport
import Testing

/// WebP out: what libwebp writes decodes back (through our own decoder) to the same size and look,
/// alpha kept; the thumbnailer's format choice.
@Suite("Encoding: WebP and the thumbnail format")
struct EncodingWebPTests {
    static func photo() throws -> Bitmap {
        try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                options: DecodeOptions(target: .longestEdge(300))).bitmap
    }

    @Test func rgbRoundTripsAtHighFidelity() throws {
        let source = try Self.photo()
        let bytes = try ImageEncoder.encodeWebP(source, quality: 85)
        #expect(ImageFormat.sniff(bytes) == .webp)
        let back = try ImageDecoder.decode(bytes, name: "round.webp").bitmap
        #expect(back.width == source.width && back.height == source.height && back.format == .rgb8)
        #expect(DecodingFixtures.psnr(back, source) > 32)
        // Lower quality, fewer bytes.
        #expect(try ImageEncoder.encodeWebP(source, quality: 40).count < bytes.count)
    }

    @Test func alphaIsKept() throws {
        let source = try ImageDecoder.decode(fileAt: Corpus.path("png-suite/basn6a08.png")).bitmap
        let back = try ImageDecoder.decode(ImageEncoder.encodeWebP(source, quality: 90), name: "alpha.webp").bitmap
        #expect(back.format == .rgba8)
        var worst = 0
        for y in 0..<source.height {
            for x in 0..<source.width { worst = max(worst, abs(Int(back[x, y, 3]) - Int(source[x, y, 3]))) }
        }
        #expect(worst <= 2, "alpha differs by up to \(worst)")
    }

    @Test func greyIsStoredAsRGB() throws {
        let grey = try ImageDecoder.decode(fileAt: Corpus.path("derived/testorig-grayscale.jpg")).bitmap
        #expect(grey.format == .gray8)
        let back = try ImageDecoder.decode(ImageEncoder.encodeWebP(grey), name: "grey.webp").bitmap
        #expect(back.format == .rgb8 && back.width == grey.width)
        #expect(abs(Int(back[10, 10, 0]) - Int(grey[10, 10, 0])) < 12)
    }

    @Test func badArgumentsAreTypedErrors() throws {
        #expect(throws: EncodeError.self) { try ImageEncoder.encodeWebP(try Self.photo(), quality: 101) }
        let tooWide = Bitmap(width: 16_384, height: 1, format: .gray8)
        #expect(throws: EncodeError.self) { try ImageEncoder.encodeWebP(tooWide) }
    }

    @Test(arguments: [(ThumbnailFormat.auto, "png-suite/basn6a08.png", ImageFormat.png),
                      (.auto, "libjpeg-turbo/testorig.jpg", .jpeg),
                      (.webp, "png-suite/basn6a08.png", .webp), (.webp, "libjpeg-turbo/testorig.jpg", .webp),
                      (.png, "libjpeg-turbo/testorig.jpg", .png), (.jpeg, "png-suite/basn6a08.png", .jpeg)])
    func thumbnailFormat(format: ThumbnailFormat, file: String, expected: ImageFormat) throws {
        let thumbnail = try Thumbnailer(longestEdge: 16, format: format).thumbnail(fileAt: Corpus.path(file))
        #expect(thumbnail.format == expected && ImageFormat.sniff(thumbnail.bytes) == expected)
        #expect(thumbnail.fileExtension == expected.fileExtension)
        let back = try ImageDecoder.decode(thumbnail.bytes, name: file)
        #expect(max(back.bitmap.width, back.bitmap.height) == 16)
    }
}
