import GalleryImaging
import Testing

@Suite("Bitmap.oriented(_:)")
struct ScalingOrientationTests {
    /// The stored 3x2 image
    ///     a b c
    ///     d e f
    /// and how it must look upright for each EXIF orientation, written out by hand from the
    /// EXIF definitions (row 0 / column 0 sides) rather than derived from the implementation.
    static let expected: [(Orientation, Int, Int, String)] = [
        (.up, 3, 2, "abc" + "def"),
        (.upMirrored, 3, 2, "cba" + "fed"),
        (.down, 3, 2, "fed" + "cba"),
        (.downMirrored, 3, 2, "def" + "abc"),
        (.leftMirrored, 2, 3, "ad" + "be" + "cf"),
        (.right, 2, 3, "da" + "eb" + "fc"),
        (.rightMirrored, 2, 3, "fc" + "eb" + "da"),
        (.left, 2, 3, "cf" + "be" + "ad"),
    ]

    /// Pixel `letter` of the 3x2 pattern in any format: every channel distinct, so a swapped
    /// channel or a misplaced pixel both show.
    static func bitmap(_ letters: String, width: Int, height: Int, format: PixelFormat) -> Bitmap {
        let codes = letters.unicodeScalars.map { UInt8($0.value) }
        return ScalingTestImages.make(width: width, height: height, format: format) { x, y, c in
            codes[y * width + x] &+ UInt8(c * 64)
        }
    }

    @Test(arguments: PixelFormat.allCases)
    func allEightOrientationsMovePixelsExactly(format: PixelFormat) {
        let stored = Self.bitmap("abcdef", width: 3, height: 2, format: format)
        for (orientation, w, h, letters) in Self.expected {
            let upright = stored.oriented(orientation)
            #expect(upright == Self.bitmap(letters, width: w, height: h, format: format), "\(orientation)")
            #expect(orientation.swapsDimensions == (w != 3))
        }
    }

    @Test func compositionLaws() {
        let stored = ScalingTestImages.make(width: 5, height: 3, format: .rgb8) { x, y, c in
            UInt8(y * 50 + x * 7 + c)
        }
        let r = { (b: Bitmap) in b.oriented(.right) }
        #expect(r(r(r(r(stored)))) == stored)
        #expect(r(r(stored)) == stored.oriented(.down))
        #expect(stored.oriented(.right).oriented(.left) == stored)
        for mirror in [Orientation.upMirrored, .downMirrored, .leftMirrored, .rightMirrored, .down] {
            #expect(stored.oriented(mirror).oriented(mirror) == stored, "\(mirror) is its own inverse")
        }
        #expect(stored.oriented(.up) == stored)
    }

    @Test func paddedRowsAndOneByN() {
        let stride = 4 * 2 + 5
        var pixels = [UInt8](repeating: 0xAB, count: stride * 3)
        for y in 0..<3 { for i in 0..<8 { pixels[y * stride + i] = UInt8(y * 8 + i) } }
        let padded = Bitmap(width: 4, height: 3, format: .grayAlpha8, bytesPerRow: stride, pixels: pixels)
        let rotated = padded.oriented(.right)
        #expect(rotated.width == 3 && rotated.height == 4 && rotated.bytesPerRow == 6)
        // Top-left of the rotated image is the stored bottom-left pixel.
        #expect(rotated[0, 0, 0] == 16 && rotated[0, 0, 1] == 17)
        #expect(!rotated.pixels.contains(0xAB))

        let column = ScalingTestImages.make(width: 1, height: 4, format: .gray8) { _, y, _ in UInt8(y) }
        #expect(column.oriented(.left).pixels == [0, 1, 2, 3])
        #expect(column.oriented(.right).pixels == [3, 2, 1, 0])
    }
}
