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
