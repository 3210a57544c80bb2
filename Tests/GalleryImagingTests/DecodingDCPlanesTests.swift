import GalleryImaging
import GalleryTestSupport
import Testing

/// Progressive 4:2:0 JPEGs at 1/8: libjpeg is handed only the DC scans (the AC scans are skipped
/// unread), and the thumbnail is made from the DC planes. Where the data ends and what the AC scans
/// hold then matter only as far as the DC scans do. The file is the corpus' Landscape_1 (1800x1200,
/// 4:2:0) through `jpegtran -progressive`: DC in scans 1 and 7 of 10.
@Suite("Decoding: progressive 4:2:0 at 1/8 from the DC scans")
struct DecodingDCPlanesTests {
    static let options = DecodeOptions(target: .longestEdge(200))

    /// Offsets of the SOS markers (0xFF 0xDA cannot occur inside entropy-coded data).
    static func scanStarts(_ jpeg: [UInt8]) -> [Int] {
        (0..<(jpeg.count - 1)).filter { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }
    }

    /// The entropy-coded bytes of scan `index`: after its header, up to the next marker.
    static func scanData(_ jpeg: [UInt8], _ index: Int) -> Range<Int> {
        let starts = scanStarts(jpeg)
        let header = starts[index] + 2 + (Int(jpeg[starts[index] + 2]) << 8 | Int(jpeg[starts[index] + 3]))
        var end = header
        while !(jpeg[end] == 0xFF && jpeg[end + 1] != 0 && !(0xD0...0xD7).contains(jpeg[end + 1])) { end += 1 }
        return header..<end
    }

    @Test func fixtureHasDCInScansOneAndSeven() throws {
        let jpeg = try DecodingFixtures.progressiveLandscape()
        let starts = Self.scanStarts(jpeg)
        #expect(starts.count == 10)
        let ss = starts.map { Int(jpeg[$0 + 5 + 2 * Int(jpeg[$0 + 4])]) }
        #expect(ss.indices.filter { ss[$0] == 0 } == [0, 6])
    }

    /// Garbage written over every AC scan's data changes nothing: those bytes are never decoded.
    /// (The plain path reads them and its pixels change.)
    @Test func acScanBytesAreNotDecoded() throws {
        let whole = try DecodingFixtures.progressiveLandscape()
        var scrambled = whole
        for index in [1, 2, 3, 4, 5, 7, 8, 9] {
            for i in Self.scanData(whole, index) { scrambled[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) % 0xFF }
        }
        let original = try ImageDecoder.decode(whole, name: "whole", options: Self.options)
        let fast = try ImageDecoder.decode(scrambled, name: "scrambled", options: Self.options)
        #expect(fast.usedFastPath && fast.scansRead == 2)
        #expect(DecodingFixtures.differingBytes(fast.bitmap, original.bitmap) == 0)
        var plainOptions = Self.options
        plainOptions.useFastPaths = false
        let plain = try? ImageDecoder.decode(scrambled, name: "scrambled", options: plainOptions)
        let plainWhole = try ImageDecoder.decode(whole, name: "whole", options: plainOptions)
        #expect(plain.map { DecodingFixtures.differingBytes($0.bitmap, plainWhole.bitmap) != 0 } ?? true)
    }

    /// Cut inside an AC scan after the DC refinement: every coefficient the DC path uses is there, so
    /// it decodes in full (it stops after the DC refinement, never seeing the end; a note at most);
    /// the plain path needs the lost scans.
    @Test(arguments: [7, 9])
    func cutAfterTheDCScansDecodes(scan: Int) throws {
        let whole = try DecodingFixtures.progressiveLandscape()
        let data = Self.scanData(whole, scan)
        let cut = Array(whole[..<(data.lowerBound + data.count / 2)])
        let reference = try ImageDecoder.decode(whole, name: "whole", options: Self.options)
        let decoded = try ImageDecoder.decode(cut, name: "cut", options: Self.options)
        #expect(decoded.usedFastPath)
        #expect(DecodingFixtures.differingBytes(decoded.bitmap, reference.bitmap) == 0)
        #expect(decoded.notes.allSatisfy { $0 == .missingEndMarker })
        var plain = Self.options
        plain.useFastPaths = false
        #expect(throws: DecodeError.truncated(name: "cut")) { try ImageDecoder.decode(cut, name: "cut", options: plain) }
    }

    /// Cut before the DC refinement is complete (inside an AC scan before it, inside the DC scans
    /// themselves, or right after the first DC scan): truncated, and with `allowTruncated` a padded
    /// image from the same path.
    @Test(arguments: [0, 2, 6])
    func cutBeforeTheDCRefinementIsTruncated(scan: Int) throws {
        let whole = try DecodingFixtures.progressiveLandscape()
        let data = Self.scanData(whole, scan)
        let cut = Array(whole[..<(data.lowerBound + data.count / 2)])
        #expect(throws: DecodeError.truncated(name: "cut")) { try ImageDecoder.decode(cut, name: "cut", options: Self.options) }
        var allow = Self.options
        allow.allowTruncated = true
        let padded = try ImageDecoder.decode(cut, name: "cut", options: allow)
        #expect(padded.usedFastPath && padded.bitmap.width == 225 && padded.bitmap.height == 150)
        #expect(!padded.notes.contains(.missingEndMarker))
    }

    /// The scan limit counts the scans the DC path skips: a file is not cheaper to abuse with many
    /// AC scans because they are skipped.
    @Test func scanLimitCountsSkippedScans() throws {
        let jpeg = try DecodingFixtures.progressiveLandscape()
        var options = Self.options
        options.maxScans = 5  // the DC refinement is scan 7
        #expect {
            try ImageDecoder.decode(jpeg, name: "scans", options: options)
        } throws: { error in
            guard case DecodeError.tooLarge(_, _, _, let limit) = error else { return false }
            return limit.contains("more than 5")
        }
        options.maxScans = 7
        #expect(try ImageDecoder.decode(jpeg, name: "scans", options: options).scansRead == 2)
    }

    /// 4:2:2 (chroma halved across only) takes the same path, with horizontal upsampling only.
    @Test func fourTwoTwo() throws {
        let bytes = try DecodingFixtures.run("sh", ["-c", "djpeg '\(Corpus.path("exif-orientation/Landscape_1.jpg"))' | cjpeg -sample 2x1 -quality 90 -progressive"])
        let fast = try ImageDecoder.decode(bytes, name: "422", options: Self.options)
        var plainOptions = Self.options
        plainOptions.useFastPaths = false
        let plain = try ImageDecoder.decode(bytes, name: "422", options: plainOptions)
        #expect(fast.usedFastPath && fast.scansRead == 2 && (plain.scansRead ?? 0) > 2)
        let full = try ImageDecoder.decode(bytes, name: "422").bitmap
        let fastPSNR = try DecodingFixtures.thumbnailPSNR(fast.bitmap, full: full, longestEdge: 200)
        let plainPSNR = try DecodingFixtures.thumbnailPSNR(plain.bitmap, full: full, longestEdge: 200)
        #expect(fastPSNR.encoded > plainPSNR.encoded - 0.3, "4:2:2: DC path \(fastPSNR) dB, plain \(plainPSNR) dB")
        #expect(fastPSNR.raw > plainPSNR.raw - 1.2, "4:2:2: DC path \(fastPSNR) dB, plain \(plainPSNR) dB")
    }
}
