import GalleryImaging
import GalleryTestSupport
import Testing

/// Adobe CMYK JPEGs become RGB in our C code; djpeg (libjpeg-turbo's own CMYK -> RGB for PPM
/// output, which also assumes Adobe's inverted storage) is the reference.
@Suite("Decoding: CMYK JPEG to RGB")
struct DecodingCMYKTests {
    /// Parses a binary PPM (P6, maxval 255) into an RGB bitmap.
    static func ppm(_ bytes: [UInt8]) throws -> Bitmap {
        var fields: [String] = [], current = "", i = 0
        while fields.count < 4 && i < bytes.count {
            let c = bytes[i]; i += 1
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(c)))
            }
        }
        #expect(fields.first == "P6" && fields.last == "255")
        let (w, h) = (try #require(Int(fields[1])), try #require(Int(fields[2])))
        return Bitmap(width: w, height: h, format: .rgb8, pixels: Array(bytes[i..<(i + w * h * 3)]))
    }

    @Test(arguments: ["jpeg-made/jpg-cmyk-1.jpg", "jpeg-made/jpg-cmyk-2.jpg"])
    func matchesDjpeg(file: String) throws {
        let ours = try ImageDecoder.decode(fileAt: Corpus.path(file))
        #expect(ours.bitmap.format == .rgb8)
        let reference = try Self.ppm(DecodingFixtures.run("djpeg", ["-pnm", Corpus.path(file)]))
        #expect(DecodingFixtures.differingBytes(ours.bitmap, reference) == 0)
    }

    /// Does any pixel in the rectangle satisfy `test` on its (r, g, b)?
    static func any(_ b: Bitmap, x: Range<Int>, y: Range<Int>, _ test: (Int, Int, Int) -> Bool) -> Bool {
        y.contains { py in x.contains { px in test(Int(b[px, py, 0]), Int(b[px, py, 1]), Int(b[px, py, 2])) } }
    }

    /// The known colours: jpg-cmyk-1 is a gradient with yellow, green, red and blue corners;
    /// jpg-cmyk-2 has cyan, yellow, magenta and black bars on white (Tests/Corpus/jpeg-made/make.sh). A wrong
    /// inversion gives dark or complementary colours.
    @Test func knownColours() throws {
        let gradient = try ImageDecoder.decode(fileAt: Corpus.path("jpeg-made/jpg-cmyk-1.jpg")).bitmap
        let corner = { (x: Int, y: Int) in (Int(gradient[x, y, 0]), Int(gradient[x, y, 1]), Int(gradient[x, y, 2])) }
        let (topLeft, topRight, bottomLeft, bottomRight) = (corner(0, 0), corner(31, 0), corner(0, 31), corner(31, 31))
        #expect(topLeft.0 > 200 && topLeft.1 > 200 && topLeft.2 < 80, "yellow \(topLeft)")
        #expect(topRight.0 < 80 && topRight.1 > 180 && topRight.2 < 80, "green \(topRight)")
        #expect(bottomLeft.0 > 200 && bottomLeft.1 < 80 && bottomLeft.2 < 80, "red \(bottomLeft)")
        #expect(bottomRight.0 < 80 && bottomRight.1 < 80 && bottomRight.2 > 180, "blue \(bottomRight)")

        let words = try ImageDecoder.decode(fileAt: Corpus.path("jpeg-made/jpg-cmyk-2.jpg")).bitmap
        #expect(words[5, 5, 0] > 245 && words[5, 5, 1] > 245 && words[5, 5, 2] > 245, "white paper")
        #expect(Self.any(words, x: 25..<75, y: 30..<52) { r, g, b in r < 120 && g > 160 && b > 160 }, "cyan")
        #expect(Self.any(words, x: 120..<190, y: 68..<90) { r, g, b in r > 180 && g > 180 && b < 120 }, "yellow")
        #expect(Self.any(words, x: 50..<135, y: 112..<136) { r, g, b in r > 160 && g < 120 && b > 160 }, "magenta")
        #expect(Self.any(words, x: 65..<120, y: 198..<220) { r, g, b in r < 60 && g < 60 && b < 60 }, "black")
    }

    @Test func scaledCMYKMatchesDjpegScaled() throws {
        let file = "jpeg-made/jpg-cmyk-2.jpg"
        let ours = try ImageDecoder.decode(fileAt: Corpus.path(file), options: DecodeOptions(target: .longestEdge(64)))
        #expect(ours.scaleDenominator == 4)
        let reference = try Self.ppm(DecodingFixtures.run("djpeg", ["-pnm", "-scale", "1/4", Corpus.path(file)]))
        #expect(DecodingFixtures.differingBytes(ours.bitmap, reference) == 0)
    }
}
