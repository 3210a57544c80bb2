@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// The DC-only progressive JPEG path and the early Adam7 passes must give exactly the pixels of the
/// plain path while doing less work.
@Suite("Decoding: fast paths equal the plain paths")
struct DecodingFastPathTests {
    static func both(_ bytes: [UInt8], name: String, target: DecodeTarget) throws -> (fast: DecodedImage, plain: DecodedImage) {
        let fast = try ImageDecoder.decode(bytes, name: name, options: DecodeOptions(target: target))
        let plain = try ImageDecoder.decode(bytes, name: name, options: DecodeOptions(target: target, useFastPaths: false))
        return (fast, plain)
    }

    /// 4:4:4 and greyscale files: libjpeg's own 1/8 output reads only DC coefficients, and the fast
    /// path gives its exact pixels.
    @Test func dcOnlyEqualsPlainOneEighth() throws {
        let file = "jpeg-edge/progressive3.jpg"
        let (fast, plain) = try Self.both(Corpus.bytes(file), name: file, target: .longestEdge(8))
        #expect(fast.scaleDenominator == 8 && plain.scaleDenominator == 8)
        #expect(fast.usedFastPath && !plain.usedFastPath)
        #expect(DecodingFixtures.differingBytes(fast.bitmap, plain.bitmap) == 0)
        let (fastScans, plainScans) = (try #require(fast.scansRead), try #require(plain.scansRead))
        // Files whose chroma refinement comes last cannot stop early; they still must not read more.
        #expect(fastScans <= plainScans, "DC-only read \(fastScans) of \(plainScans) scans")
    }

    /// 4:2:0 files (Huffman and arithmetic, interleaved and one-MCU-wide): the DC planes with the
    /// chroma upsampled by us, from the two DC scans of libjpeg's standard script (scans 1 and 7 of
    /// 10), close to libjpeg's 1/8 output with its 2x2 chroma IDCT.
    @Test(arguments: ["derived/testorig-progressive.jpg", "derived/testorig-progressive-arith.jpg",
                      "jpeg-edge/non-interleaved-mcu.jpg"])
    func dcPlanesAgainstPlainOneEighth(file: String) throws {
        let (fast, plain) = try Self.both(Corpus.bytes(file), name: file, target: .longestEdge(8))
        #expect(fast.scaleDenominator == 8 && plain.scaleDenominator == 8)
        #expect(fast.usedFastPath && !plain.usedFastPath)
        #expect(fast.bitmap.width == plain.bitmap.width && fast.bitmap.height == plain.bitmap.height)
        let psnr = DecodingFixtures.psnr(fast.bitmap, plain.bitmap)
        #expect(psnr > 28, "\(file): DC planes against libjpeg's 1/8 output: \(psnr) dB")
        #expect(fast.scansRead == 2 && plain.scansRead == 10, "read \(fast.scansRead ?? -1) and \(plain.scansRead ?? -1) scans")
    }

    /// Same coefficients, so the transcoded progressive file at 1/8 equals the baseline original on
    /// the plain path; the DC path differs only by its chroma upsampling.
    @Test func dcOnlyEqualsBaselineOriginal() throws {
        let target = DecodeTarget.covering(width: 29, height: 19)
        let progressive = try ImageDecoder.decode(Corpus.bytes("derived/testorig-progressive.jpg"), name: "p",
                                                  options: DecodeOptions(target: target, useFastPaths: false))
        let fast = try ImageDecoder.decode(Corpus.bytes("derived/testorig-progressive.jpg"), name: "p",
                                           options: DecodeOptions(target: target))
        let baseline = try ImageDecoder.decode(Corpus.bytes("libjpeg-turbo/testorig.jpg"), name: "b",
                                               options: DecodeOptions(target: target))
        #expect(fast.usedFastPath && !progressive.usedFastPath)
        #expect(DecodingFixtures.differingBytes(progressive.bitmap, baseline.bitmap) == 0)
        #expect(DecodingFixtures.psnr(fast.bitmap, baseline.bitmap) > 28)
    }

    /// libjpeg's standard progression (jpegtran -progressive, cjpeg -progressive, our encoder).
    /// Greyscale and 4:4:4 files stop after the DC scans with libjpeg's exact 1/8 pixels; 4:2:0 files
    /// read only their DC scans too (their AC scans are skipped unread), and their thumbnails stay
    /// within 0.3 dB PSNR of the plain path's against an exact area average of the full decode.
    @Test(arguments: ["4:2:0 jpegtran", "4:2:0 3600x2400 ours", "grey jpegtran", "4:4:4 cjpeg",
                      "grey DC-first", "4:4:4 DC-first", "4:2:0 DC-first"])
    func dcOnlyOnRealPhotos(kind: String) throws {
        let bytes = switch kind {
        case "4:2:0 jpegtran": try DecodingFixtures.progressiveLandscape()
        case "4:2:0 3600x2400 ours": try DecodingFixtures.largePhoto(progressive: true)
        case "grey jpegtran": try DecodingFixtures.progressiveLandscapeGrey(dcFirst: false)
        case "4:4:4 cjpeg": try DecodingFixtures.progressiveLandscape444(dcFirst: false)
        case "grey DC-first": try DecodingFixtures.progressiveLandscapeGrey(dcFirst: true)
        case "4:2:0 DC-first": try DecodingFixtures.progressiveLandscape420DCFirst()
        default: try DecodingFixtures.progressiveLandscape444(dcFirst: true)
        }
        let (fast, plain) = try Self.both(bytes, name: kind, target: .longestEdge(200))
        #expect(fast.scaleDenominator == 8)
        #expect(fast.usedFastPath)
        let (fastScans, plainScans) = (try #require(fast.scansRead), try #require(plain.scansRead))
        #expect(fastScans < plainScans, "read \(fastScans) of \(plainScans) scans")
        if kind.hasSuffix("DC-first") {
            #expect(fastScans == 1, "only the DC scan, read \(fastScans) of \(plainScans)")
        }
        guard kind.hasPrefix("4:2:0") else {
            #expect(DecodingFixtures.differingBytes(fast.bitmap, plain.bitmap) == 0)
            return
        }
        if !kind.hasSuffix("DC-first") { #expect(fastScans == 2, "the two DC scans, read \(fastScans)") }
        let full = try ImageDecoder.decode(bytes, name: kind).bitmap
        let fastPSNR = try DecodingFixtures.thumbnailPSNR(fast.bitmap, full: full, longestEdge: 200)
        let plainPSNR = try DecodingFixtures.thumbnailPSNR(plain.bitmap, full: full, longestEdge: 200)
        // The delivered thumbnail within 0.3 dB; before encoding, the chroma's lost detail shows more
        // (0.9 dB on Landscape_1 at 200 px, its thumbnail only 1/9 of the source).
        #expect(fastPSNR.raw > plainPSNR.raw - 1.2, "\(kind): DC path \(fastPSNR.raw) dB, plain \(plainPSNR.raw) dB")
        #expect(fastPSNR.encoded > plainPSNR.encoded - 0.3, "\(kind): DC path \(fastPSNR.encoded) dB, plain \(plainPSNR.encoded) dB")
    }

    /// Baseline files and other scales never take the DC-only path.
    @Test func dcOnlyOnlyForProgressiveAtOneEighth() throws {
        let baseline = try ImageDecoder.decode(Corpus.bytes("libjpeg-turbo/testorig.jpg"), name: "b",
                                               options: DecodeOptions(target: .longestEdge(8)))
        #expect(!baseline.usedFastPath && baseline.scansRead == 1)
        let quarter = try ImageDecoder.decode(Corpus.bytes("derived/testorig-progressive.jpg"), name: "p",
                                              options: DecodeOptions(target: .longestEdge(40)))
        #expect(quarter.scaleDenominator == 4 && !quarter.usedFastPath)
    }

    static let interlacedPNGs: [String] = Corpus.entries.filter { row in
        row.expect == "ok" && row.file.hasSuffix(".png")
            && ((try? ImageDecoder.probe(Corpus.bytes(row.file), name: row.file).isProgressive) ?? false)
    }.map(\.file)

    @Test func corpusHasInterlacedPNGs() { #expect(Self.interlacedPNGs.count >= 20) }

    /// The early passes are taken only over the memory bound (lowered here through maxCodecMemory),
    /// and only when they keep twice the target on each edge.
    static func overTheBound(_ target: DecodeTarget) -> DecodeOptions {
        var options = DecodeOptions(target: target)
        options.maxCodecMemory = 16
        return options
    }

    @Test(arguments: interlacedPNGs, [8, 4, 2])
    func adam7EarlyPassesEqualSubsampledFullDecode(file: String, stride: Int) throws {
        let bytes = try Corpus.bytes(file)
        let full = try ImageDecoder.decode(bytes, name: file).bitmap
        let grid = DecodingFixtures.subsampled(full, stride: stride)
        guard grid.width < full.width || grid.height < full.height else { return }  // 1x1: nothing to reduce
        // Half the grid: the passes must keep 2x the target. On tiny images another stride may be the
        // one that covers it; the decoder rightly takes that.
        let half = (width: max(grid.width / 2, 1), height: max(grid.height / 2, 1))
        let expected = halvingReduction(sourceWidth: full.width, sourceHeight: full.height,
                                        minimum: (2 * half.width, 2 * half.height))
        guard expected == stride else { return }
        let early = try ImageDecoder.decode(bytes, name: file, options: Self.overTheBound(
            .covering(width: half.width, height: half.height)))
        #expect(early.scaleDenominator == stride && early.usedFastPath)
        #expect(DecodingFixtures.differingBytes(early.bitmap, grid) == 0)
    }

    @Test(arguments: [8, 4, 2])
    func adam7EarlyPassesOnARealPhoto(stride: Int) throws {
        let png = try DecodingFixtures.run("convert", [Corpus.path("exif-orientation/Landscape_1.jpg"),
                                                       "-interlace", "PNG", "png:-"])
        let full = try ImageDecoder.decode(png, name: "landscape.png").bitmap
        let grid = DecodingFixtures.subsampled(full, stride: stride)
        let early = try ImageDecoder.decode(png, name: "landscape.png",
                                            options: Self.overTheBound(.longestEdge(grid.width / 2)))
        #expect(early.scaleDenominator == stride)
        #expect(DecodingFixtures.differingBytes(early.bitmap, grid) == 0)
        var plainOptions = Self.overTheBound(.longestEdge(grid.width / 2))
        plainOptions.useFastPaths = false
        let plain = try ImageDecoder.decode(png, name: "landscape.png", options: plainOptions)
        #expect(plain.scaleDenominator == 1 && DecodingFixtures.differingBytes(plain.bitmap, full) == 0)
    }
}
