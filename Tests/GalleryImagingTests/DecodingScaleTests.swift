import GalleryImaging
import GalleryTestSupport
import Testing

@Suite("Decoding: DCT scaling and target sizes")
struct DecodingScaleTests {
    @Test func targetSizeKeepsAspectAndNeverUpscales() {
        #expect(DecodeTarget.longestEdge(256).minimumSize(sourceWidth: 3600, sourceHeight: 2400) == (256, 171))
        #expect(DecodeTarget.longestEdge(256).minimumSize(sourceWidth: 2400, sourceHeight: 3600) == (171, 256))
        #expect(DecodeTarget.longestEdge(5000).minimumSize(sourceWidth: 300, sourceHeight: 200) == (300, 200))
        #expect(DecodeTarget.longestEdge(10).minimumSize(sourceWidth: 10_000, sourceHeight: 3) == (10, 1))
        #expect(DecodeTarget.covering(width: 64, height: 9999).minimumSize(sourceWidth: 100, sourceHeight: 100) == (64, 100))
        #expect(DecodeTarget.fullSize.minimumSize(sourceWidth: 7, sourceHeight: 5) == (7, 5))
    }

    /// 3600x2400: 1/8 is 450x300, 1/4 900x600, 3/8 1350x900, 1/2 1800x1200, 5/8 2250x1500; 3/4 and 7/8
    /// are never taken (slower than the full size in libjpeg-turbo).
    @Test(arguments: [(256, 1, 8, 450, 300), (450, 1, 8, 450, 300), (451, 1, 4, 900, 600), (900, 1, 4, 900, 600),
                      (1000, 3, 8, 1350, 900), (1351, 1, 2, 1800, 1200), (2000, 5, 8, 2250, 1500),
                      (2251, 1, 1, 3600, 2400), (3000, 1, 1, 3600, 2400)])
    func largePhotoPicksTheSmallestCoveringScale(edge: Int, numerator: Int, denominator: Int, width: Int, height: Int) throws {
        let big = try DecodingFixtures.largePhoto(progressive: false)
        let image = try ImageDecoder.decode(big, name: "large.jpg", options: DecodeOptions(target: .longestEdge(edge)))
        #expect(image.scaleNumerator == numerator && image.scaleDenominator == denominator)
        #expect(image.bitmap.width == width && image.bitmap.height == height)
        #expect(image.sourceWidth == 3600 && image.sourceHeight == 2400)
        #expect(image.bitmap.width >= min(edge, 3600))
    }

    /// A picture made from a 3/8 or 5/8 DCT decode matches one made from the full decode: both scaled to
    /// the target, against an area-filtered reference from the full decode.
    @Test(arguments: [1000, 2000])
    func eighthScalesKeepThePictureSharp(edge: Int) throws {
        let big = try DecodingFixtures.largePhoto(progressive: true)
        let full = try ImageDecoder.decode(big, name: "large.jpg").bitmap
        let reduced = try ImageDecoder.decode(big, name: "large.jpg", options: DecodeOptions(target: .longestEdge(edge)))
        #expect(reduced.scaleNumerator > 1 && reduced.bitmap.width < full.width)
        let viaFull = try DecodingFixtures.thumbnailPSNR(full, full: full, longestEdge: edge)
        let viaReduced = try DecodingFixtures.thumbnailPSNR(reduced.bitmap, full: full, longestEdge: edge)
        // Saved as the gallery saves it (JPEG q85), the difference is within a fraction of a dB; the raw
        // pixels differ more where the last resample is a small step (2250 to 2000 px).
        #expect(viaReduced.raw >= 36, "PSNR \(viaReduced.raw) dB at \(edge) px (from the full decode: \(viaFull.raw) dB)")
        #expect(viaReduced.encoded >= viaFull.encoded - 0.75,
                "PSNR after JPEG q85 \(viaReduced.encoded) dB against \(viaFull.encoded) dB from the full decode")
    }

    /// 1800x1200 with a 600 target: 3/8 (675x450) would cover it, but the 1/2 image (900x600) is small
    /// enough that libjpeg-turbo's SIMD 1/2 decode is taken instead; the 3600x2400 photo at 1/2 is not (above).
    @Test func smallPhotoTakesHalfOverThreeEighths() throws {
        let image = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                            options: DecodeOptions(target: .longestEdge(600)))
        #expect(image.scaleNumerator == 1 && image.scaleDenominator == 2)
        #expect(image.bitmap.width == 900 && image.bitmap.height == 600)
    }

    /// 227x149 at 1/2 is 114x75 (libjpeg rounds up): its last column and row stand for one source pixel each,
    /// not two. Scaled as spanning 113.5x74.5 pixels, the thumbnail lines up with one made from the full
    /// decode; scaled as spanning all 114x75, it is stretched by one source pixel towards the far edges.
    @Test(arguments: [100, 80])
    func partialLastPixelsOfADCTScaleAreNotStretched(edge: Int) throws {
        let bytes = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let full = try ImageDecoder.decode(bytes, name: "testorig.jpg").bitmap
        let reduced = try ImageDecoder.decode(bytes, name: "testorig.jpg", options: DecodeOptions(target: .longestEdge(edge)))
        #expect(reduced.scaleNumerator == 1 && reduced.scaleDenominator == 2)
        let extent = try #require(reduced.dctExtent)
        #expect(extent.width == 113.5 && extent.height == 74.5)
        let size = targetSize(forSourceWidth: full.width, height: full.height, longestEdge: edge)
        let reference = Resampler.default.scale(full, width: size.width, height: size.height)
        let spanned = Resampler.default.scale(reduced.bitmap, width: size.width, height: size.height, extent: extent)
        let stretched = Resampler.default.scale(reduced.bitmap, width: size.width, height: size.height)
        let plan = DecodePlan(size: .longestEdge(edge), options: DecodeOptions()).finish(reduced, resampler: .default)
        let planSpans = plan.pixels == spanned.pixels
        #expect(planSpans, "the decode plan scales over the spanned pixels")
        let good = DecodingFixtures.psnr(spanned, reference), bad = DecodingFixtures.psnr(stretched, reference)
        #expect(good >= bad + 3, "spanned \(good) dB, stretched \(bad) dB against the full decode")
    }

    /// 1800x1200 with a 256 target: 1/8 (225x150) is too small, so 1/4.
    @Test func photoJustTooSmallForOneEighthUsesOneQuarter() throws {
        let image = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                            options: DecodeOptions(target: .longestEdge(256)))
        #expect(image.scaleDenominator == 4)
        #expect(image.bitmap.width == 450 && image.bitmap.height == 300)
    }

    /// Odd sizes round up like libjpeg's jpeg_calc_output_dimensions: 227x149 at 1/8 is 29x19.
    @Test func oddSizesRoundUp() throws {
        let image = try ImageDecoder.decode(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg"),
                                            options: DecodeOptions(target: .covering(width: 20, height: 10)))
        #expect(image.scaleDenominator == 8)
        #expect(image.bitmap.width == 29 && image.bitmap.height == 19)
    }

    @Test func greyscaleStaysOneChannelWhenScaled() throws {
        let image = try ImageDecoder.decode(fileAt: Corpus.path("jpeg-edge/blank_800x280.jpg"),
                                            options: DecodeOptions(target: .longestEdge(100)))
        #expect(image.bitmap.format == .gray8)
        #expect(image.scaleDenominator == 8 && image.bitmap.width == 100 && image.bitmap.height == 35)
    }
}
