import GalleryImaging
import GalleryTestSupport
import Testing

@Suite("Encoding: JPEG and PNG round trips")
struct EncodingRoundTripTests {
    /// A deterministic pattern with gradients, edges and (for alpha formats) varying alpha.
    static func pattern(_ format: PixelFormat, width: Int = 67, height: Int = 41) -> Bitmap {
        Bitmap(width: width, height: height, format: format) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<format.channels {
                        buffer[(y * width + x) * format.channels + c] = UInt8(truncatingIfNeeded: x * 5 + y * 3 + c * 70 + (x / 8 + y / 8) % 2 * 60)
                    }
                }
            }
        }
    }

    @Test(arguments: PixelFormat.allCases)
    func pngIsLossless(format: PixelFormat) throws {
        let original = Self.pattern(format)
        let png = try ImageEncoder.encodePNG(original)
        #expect(ImageFormat.sniff(png) == .png)
        let decoded = try ImageDecoder.decode(png, name: "roundtrip.png")
        #expect(decoded.bitmap == original)
    }

    /// The writer that takes a zlib level makes the default writer's file at libpng's own level (6), chunk
    /// for chunk and byte for byte, and keeps every pixel at every level.
    @Test(arguments: PixelFormat.allCases)
    func pngAtAZlibLevelIsTheSamePNGCompressedOtherwise(format: PixelFormat) throws {
        let original = Self.pattern(format, width: 301, height: 97)
        #expect(try ImageEncoder.encodePNG(original, zlibLevel: 6) == ImageEncoder.encodePNG(original))
        for level in [0, 1, 2, 9] {
            let png = try ImageEncoder.encodePNG(original, zlibLevel: level)
            #expect(try ImageDecoder.decode(png, name: "level \(level).png").bitmap == original, "level \(level)")
        }
    }

    @Test func lowerZlibLevelsCompressAPhotoLess() throws {
        let photo = try ImageDecoder.decode(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg")).bitmap
        let stored = try ImageEncoder.encodePNG(photo, zlibLevel: 0)
        let fast = try ImageEncoder.encodePNG(photo, zlibLevel: 2)
        let standard = try ImageEncoder.encodePNG(photo)
        #expect(stored.count > fast.count && fast.count > standard.count)
        #expect(stored.count > photo.width * photo.height * 3)  // level 0 stores: every pixel byte and more
        #expect(try ImageDecoder.decode(fast, name: "fast.png").bitmap == photo)
    }

    @Test(arguments: [-1, 10])
    func aZlibLevelOutsideItsRangeIsRefused(level: Int) {
        #expect(throws: EncodeError.invalidParameter("PNG zlib level \(level) is outside 0...9")) {
            try ImageEncoder.encodePNG(Self.pattern(.rgb8), zlibLevel: level)
        }
    }

    @Test func pngOfARealPhotoIsLossless() throws {
        let photo = try ImageDecoder.decode(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg")).bitmap
        let decoded = try ImageDecoder.decode(ImageEncoder.encodePNG(photo), name: "photo.png")
        #expect(DecodingFixtures.differingBytes(decoded.bitmap, photo) == 0)
    }

    @Test(arguments: [(85, false, false, 30.0), (95, true, false, 36.0), (85, false, true, 30.0), (50, false, false, 27.0)])
    func jpegRoundTripOfARealPhoto(quality: Int, optimize: Bool, progressive: Bool, minimumPSNR: Double) throws {
        let photo = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                            options: DecodeOptions(target: .longestEdge(450))).bitmap
        let jpeg = try ImageEncoder.encodeJPEG(photo, quality: quality, optimizeHuffman: optimize, progressive: progressive)
        let decoded = try ImageDecoder.decode(jpeg, name: "roundtrip.jpg")
        #expect(decoded.bitmap.width == photo.width && decoded.bitmap.height == photo.height)
        #expect(decoded.bitmap.format == .rgb8)
        let probe = try ImageDecoder.probe(jpeg, name: "roundtrip.jpg")
        #expect(probe.isProgressive == progressive)
        let psnr = DecodingFixtures.psnr(decoded.bitmap, photo)
        #expect(psnr > minimumPSNR, "PSNR \(psnr) dB at quality \(quality)")
    }

    @Test func greyJPEGStaysGrey() throws {
        let grey = try ImageDecoder.decode(fileAt: Corpus.path("derived/testorig-grayscale.jpg")).bitmap
        let decoded = try ImageDecoder.decode(ImageEncoder.encodeJPEG(grey), name: "grey.jpg")
        #expect(decoded.bitmap.format == .gray8)
        #expect(DecodingFixtures.psnr(decoded.bitmap, grey) > 30)
    }

    @Test func higherQualityIsBiggerAndCloser() throws {
        let photo = try ImageDecoder.decode(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg")).bitmap
        let low = try ImageEncoder.encodeJPEG(photo, quality: 30)
        let high = try ImageEncoder.encodeJPEG(photo, quality: 95)
        #expect(low.count < high.count)
        let lowPSNR = DecodingFixtures.psnr(try ImageDecoder.decode(low, name: "l").bitmap, photo)
        let highPSNR = DecodingFixtures.psnr(try ImageDecoder.decode(high, name: "h").bitmap, photo)
        #expect(lowPSNR < highPSNR)
    }

    /// JPEG has no alpha: transparent becomes white, opaque keeps its colour.
    @Test func alphaIsFlattenedOntoWhite() throws {
        let rgba = Bitmap(width: 16, height: 16, format: .rgba8,
                          pixels: (0..<256).flatMap { i in i < 128 ? [200, 0, 0, 0] : [0, 0, 200, 255] as [UInt8] })
        let decoded = try ImageDecoder.decode(ImageEncoder.encodeJPEG(rgba, quality: 100), name: "a.jpg").bitmap
        #expect(decoded.format == .rgb8)
        let top = (decoded[4, 2, 0], decoded[4, 2, 1], decoded[4, 2, 2])
        let bottom = (decoded[4, 13, 0], decoded[4, 13, 1], decoded[4, 13, 2])
        #expect(top.0 > 245 && top.1 > 245 && top.2 > 245, "\(top)")
        #expect(bottom.0 < 15 && bottom.1 < 15 && bottom.2 > 185, "\(bottom)")
        let ga = Bitmap(width: 8, height: 8, format: .grayAlpha8, pixels: [UInt8](repeating: 0, count: 128))
        #expect(try ImageDecoder.decode(ImageEncoder.encodeJPEG(ga), name: "ga.jpg").bitmap.format == .gray8)
    }

    @Test func badQualityIsRejected() {
        #expect(throws: EncodeError.invalidParameter("JPEG quality 0 is outside 1...100")) {
            try ImageEncoder.encodeJPEG(Self.pattern(.rgb8), quality: 0)
        }
        #expect(throws: EncodeError.self) { try ImageEncoder.encodeJPEG(Self.pattern(.rgb8), quality: 101) }
    }
}
