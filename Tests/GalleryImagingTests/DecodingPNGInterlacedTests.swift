import GalleryImaging
import GalleryTestSupport
import Testing

/// An Adam7 (interlaced) PNG makes the same thumbnail as the same picture saved without interlacing:
/// its rows are put back together from the passes and box-reduced like any other PNG's. Only over
/// the memory bound does the decoder fall back to the early passes, and then only to passes that
/// still have twice the target's pixels on each edge (one pixel of a block standing for the block
/// aliases: on a PNG-heavy benchmark set a stride-4 pass cost one file 3.4 dB).
@Suite("Decoding: interlaced PNG thumbnails")
struct DecodingPNGInterlacedTests {
    /// The 1800x1200 corpus photograph as an interlaced PNG (ImageMagick) and, from the same
    /// pixels, a non-interlaced one (our encoder).
    static func photoPair() throws -> (interlaced: [UInt8], plain: [UInt8], full: Bitmap) {
        let interlaced = try DecodingFixtures.run("convert", [Corpus.path("exif-orientation/Landscape_1.jpg"),
                                                              "-strip", "-interlace", "PNG", "PNG24:-"])
        let full = try ImageDecoder.decode(interlaced, name: "interlaced.png").bitmap
        #expect(try ImageDecoder.probe(interlaced, name: "interlaced.png").isProgressive)
        return (interlaced, try ImageEncoder.encodePNG(full), full)
    }

    static func thumbnail(_ png: [UInt8], options: DecodeOptions) throws -> (decoded: DecodedImage, thumbnail: Bitmap) {
        let decoded = try ImageDecoder.decode(png, name: "photo.png", options: options)
        return (decoded, Thumbnailer(longestEdge: 256).render(decoded))
    }

    @Test func interlacedThumbnailEqualsNonInterlaced() throws {
        let (interlaced, plain, full) = try Self.photoPair()
        let options = DecodeOptions(target: .longestEdge(256))
        let a = try Self.thumbnail(interlaced, options: options), b = try Self.thumbnail(plain, options: options)
        // 1800 -> 256: the box factor 3, as for the non-interlaced file (the old pass path took stride 4).
        #expect(a.decoded.scaleDenominator == 3 && a.decoded.usedFastPath)
        #expect(a.decoded.scaleDenominator == b.decoded.scaleDenominator)
        #expect(DecodingFixtures.differingBytes(a.decoded.bitmap, b.decoded.bitmap) == 0)
        #expect(DecodingFixtures.differingBytes(a.thumbnail, b.thumbnail) == 0)
        let qa = try DecodingFixtures.thumbnailPSNR(a.decoded.bitmap, full: full, longestEdge: 256)
        let qb = try DecodingFixtures.thumbnailPSNR(b.decoded.bitmap, full: full, longestEdge: 256)
        #expect(qa.raw >= qb.raw - 0.1, "interlaced \(qa.raw) dB, non-interlaced \(qb.raw) dB against the area average")
    }

    /// Every interlaced file of the corpus reduces to what its full decode box-averages to.
    @Test(arguments: DecodingFastPathTests.interlacedPNGs)
    func corpusFileReducesLikeItsFullDecode(_ file: String) throws {
        let bytes = try Corpus.bytes(file)
        let full = try ImageDecoder.decode(bytes, name: file).bitmap
        let reduced = try ImageDecoder.decode(bytes, name: file, options: DecodeOptions(target: .longestEdge(8)))
        guard reduced.scaleDenominator > 1 else { return }  // too small to reduce
        #expect(reduced.usedFastPath)
        let k = reduced.scaleDenominator
        #expect(DecodingFixtures.differingBytes(reduced.bitmap, DecodingPNGReduceTests.boxAverage(full, k)) == 0)
    }

    /// Over the memory bound (lowered here through maxCodecMemory) the early passes are used, but
    /// only those with 2x the target on each edge: 1800x1200 to 256x171 takes stride 2 (900x600),
    /// not stride 4 (450x300).
    @Test func overTheBoundPassesKeepTwiceTheTarget() throws {
        let (interlaced, _, full) = try Self.photoPair()
        var options = DecodeOptions(target: .longestEdge(256))
        options.maxCodecMemory = 1 << 20
        let (decoded, _) = try Self.thumbnail(interlaced, options: options)
        #expect(decoded.scaleDenominator == 2 && decoded.usedFastPath)
        #expect(DecodingFixtures.differingBytes(decoded.bitmap, DecodingFixtures.subsampled(full, stride: 2)) == 0)
        // 500x333 would need 1000x666 from the passes: stride 2 (900x600) is too coarse, so no stride.
        options.target = .longestEdge(500)
        #expect(try ImageDecoder.decode(interlaced, name: "p.png", options: options).scaleDenominator == 1)
    }

    /// The photograph interlaced in the layouts of Scripts/bench-png-set (ImageMagick's adaptive
    /// filters), put back together from the passes byte for byte as libpng's rows give it, at full
    /// size and box-reduced.
    @Test(arguments: [["PNG24:"], ["(", "+clone", "-colorspace", "gray", ")", "-alpha", "off", "-compose", "CopyOpacity", "-composite", "PNG32:"],
                      ["-colorspace", "gray", "-define", "png:color-type=0", "-depth", "8", ""],
                      ["-colors", "256", "PNG8:"], ["-depth", "16", "PNG48:"], ["-colorspace", "gray", "-depth", "2", ""]])
    func photoLayoutsMatchLibpng(_ layout: [String]) throws {
        let args = [try Corpus.path("exif-orientation/Landscape_1.jpg"), "-strip", "-resize", "601x401"] + layout.dropLast()
            + ["-interlace", "PNG", layout.last! + "-"]
        let png = try DecodingFixtures.run("convert", args.map { $0 == "-" ? "png:-" : $0 })
        #expect(try ImageDecoder.probe(png, name: "p.png").isProgressive)
        for target in [DecodeTarget.fullSize, .longestEdge(100)] {
            let whole = DecodingPNGWholeStreamTests.compare(png, "\(layout).png", DecodeOptions(target: target))
            #expect(whole, "\(layout) (\(target)) did not take the whole-stream path")
        }
    }
}
