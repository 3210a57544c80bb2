import GalleryImaging
import GalleryTestSupport
import Testing

/// A non-interlaced PNG far larger than the target is box-reduced as libpng hands out its rows: the
/// result is exactly the block average of the full decode (alpha-weighted when there is alpha), and
/// the thumbnail made from it looks like the one made from the full decode.
@Suite("Decoding: PNG reduced while decoding")
struct DecodingPNGReduceTests {
    /// A 1800x1200 photograph as PNG, made from the corpus' JPEG.
    static func photoPNG() throws -> (png: [UInt8], full: Bitmap) {
        let full = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg")).bitmap
        return (try ImageEncoder.encodePNG(full), full)
    }

    /// The reference: k x k block averages of `b`, rounded as the C code does.
    static func boxAverage(_ b: Bitmap, _ k: Int) -> Bitmap {
        let ch = b.format.channels, alpha = b.format.hasAlpha
        let (w, h) = ((b.width + k - 1) / k, (b.height + k - 1) / k)
        var out = [UInt8](repeating: 0, count: w * h * ch)
        for by in 0..<h {
            for bx in 0..<w {
                var sums = [Int](repeating: 0, count: ch)
                let ys = (by * k)..<min(by * k + k, b.height), xs = (bx * k)..<min(bx * k + k, b.width)
                for y in ys {
                    for x in xs {
                        let a = alpha ? Int(b[x, y, ch - 1]) : 1
                        for c in 0..<ch { sums[c] += (alpha && c < ch - 1) ? Int(b[x, y, c]) * a : Int(b[x, y, c]) }
                    }
                }
                let n = ys.count * xs.count
                for c in 0..<ch {
                    let at = (by * w + bx) * ch + c
                    if alpha && c < ch - 1 {
                        let a = sums[ch - 1]
                        out[at] = a == 0 ? 0 : UInt8((sums[c] + a / 2) / a)
                    } else {
                        out[at] = UInt8((sums[c] + n / 2) / n)
                    }
                }
            }
        }
        return Bitmap(width: w, height: h, format: b.format, pixels: out)
    }

    @Test func reducedIsTheExactBlockAverage() throws {
        let (png, full) = try Self.photoPNG()
        let image = try ImageDecoder.decode(png, name: "photo.png", options: DecodeOptions(target: .longestEdge(256)))
        // 1800 -> 256 is 7.03x; the resampler's gap of 2 leaves a box factor of 3.
        #expect(image.scaleDenominator == 3 && image.usedFastPath)
        #expect(image.bitmap.width == 600 && image.bitmap.height == 400)
        #expect(image.sourceWidth == 1800 && image.sourceHeight == 1200)
        #expect(DecodingFixtures.differingBytes(image.bitmap, Self.boxAverage(full, 3)) == 0)
    }

    @Test func alphaIsWeightedAndEdgesArePartialBlocks() throws {
        let tile = try ImageDecoder.decode(fileAt: Corpus.path("png-suite/basn6a08.png")).bitmap
        let big = DecodingFixtures.tiled(tile, columns: 13, rows: 9)  // 416x288: not a multiple of the factor
        let png = try ImageEncoder.encodePNG(big)
        let image = try ImageDecoder.decode(png, name: "alpha.png", options: DecodeOptions(target: .longestEdge(40)))
        let k = image.scaleDenominator
        #expect(k == 5 && image.bitmap.format == .rgba8)
        #expect(image.bitmap.width == (416 + k - 1) / k && image.bitmap.height == (288 + k - 1) / k)
        #expect(DecodingFixtures.differingBytes(image.bitmap, Self.boxAverage(big, k)) == 0)
        let grey = try ImageEncoder.encodePNG(try ImageDecoder.decode(fileAt: Corpus.path("derived/testorig-grayscale.jpg")).bitmap)
        let reducedGrey = try ImageDecoder.decode(grey, name: "grey.png", options: DecodeOptions(target: .longestEdge(50)))
        #expect(reducedGrey.scaleDenominator == 2 && reducedGrey.bitmap.format == .gray8)
    }

    @Test func thumbnailMatchesTheFullDecodePath() throws {
        let (png, _) = try Self.photoPNG()
        let fast = try Thumbnailer(longestEdge: 256).render(png.withUnsafeBytes { bytes in
            try ImageDecoder.decode(bytes, name: "p.png", options: DecodeOptions(target: .longestEdge(256)))
        })
        let plain = try Thumbnailer(longestEdge: 256).render(png.withUnsafeBytes { bytes in
            try ImageDecoder.decode(bytes, name: "p.png", options: DecodeOptions(useFastPaths: false))
        })
        #expect(fast.width == 256 && fast.height == 171)
        #expect(DecodingFixtures.psnr(fast, plain) > 40)
    }

    /// Targets near the source size and `useFastPaths: false` keep the other paths; an interlaced file
    /// is reduced by the same factor as its non-interlaced twin.
    @Test func otherCasesAreNotReduced() throws {
        let (png, _) = try Self.photoPNG()
        #expect(try ImageDecoder.decode(png, name: "p.png", options: DecodeOptions(target: .longestEdge(1000))).scaleDenominator == 1)
        #expect(try ImageDecoder.decode(png, name: "p.png", options: DecodeOptions(target: .longestEdge(256), useFastPaths: false)).scaleDenominator == 1)
        let interlaced = try ImageDecoder.decode(fileAt: Corpus.path("png-suite/basi2c08.png"),
                                                 options: DecodeOptions(target: .longestEdge(4)))
        let twin = try ImageDecoder.decode(fileAt: Corpus.path("png-suite/basn2c08.png"),
                                           options: DecodeOptions(target: .longestEdge(4)))
        #expect(interlaced.scaleDenominator > 1 && interlaced.scaleDenominator == twin.scaleDenominator)
        #expect(DecodingFixtures.differingBytes(interlaced.bitmap, twin.bitmap) == 0)
    }
}
