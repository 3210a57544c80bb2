import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// A JPEG whose scans are complete but whose EOI marker is missing decodes in full (a note only); a
/// JPEG cut inside its scan data stays `.truncated` unless truncation is allowed. The files are the
/// corpus' photos with their tails cut off here, baseline and progressive.
@Suite("Decoding: missing EOI against truncation")
struct DecodingEndMarkerTests {
    static func baseline() throws -> [UInt8] { try Corpus.bytes("exif-orientation/Landscape_1.jpg") }
    static func progressive() throws -> [UInt8] { try DecodingFixtures.progressiveLandscape() }
    static func restarts() throws -> [UInt8] { try Corpus.bytes("derived/testorig-restart2.jpg") }
    static func nonInterleaved() throws -> [UInt8] { try Corpus.bytes("jpeg-edge/non-interleaved-mcu.jpg") }
    /// Progressive, its lower part flat white: the AC scans end in an EOB run over many MCU rows, so
    /// the decoder reads its last bytes long before the last row.
    static func progressiveFlatBottom() throws -> [UInt8] {
        try DecodingFixtures.run("sh", ["-c", "convert '\(Corpus.path("exif-orientation/Landscape_1.jpg"))' -fill white "
                                        + "-draw 'rectangle 0,500 1800,1200' ppm:- | cjpeg -quality 90 -progressive"])
    }

    /// The bytes up to (not including) the final EOI marker.
    static func withoutEOI(_ jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.suffix(2) == [0xFF, 0xD9], "the fixture ends with EOI")
        return Array(jpeg.dropLast(2))
    }

    /// The offset of the last SOS marker (the start of the last scan).
    static func lastScanStart(_ jpeg: [UInt8]) -> Int {
        var last = 0
        for i in 0..<(jpeg.count - 1) where jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA { last = i }
        return last
    }

    static let files: [(String, @Sendable () throws -> [UInt8])] = [
        ("baseline", baseline), ("progressive", progressive), ("restart markers", restarts),
        ("non-interleaved scans", nonInterleaved), ("progressive, flat bottom", progressiveFlatBottom),
    ]

    @Test(arguments: 0..<5, [DecodeTarget.fullSize, .longestEdge(256), .longestEdge(100)])
    func missingEOIDecodesInFull(_ index: Int, _ target: DecodeTarget) throws {
        let (label, make) = Self.files[index]
        let whole = try make()
        let options = DecodeOptions(target: target)
        let reference = try ImageDecoder.decode(whole, name: label, options: options)
        let decoded = try ImageDecoder.decode(Self.withoutEOI(whole), name: label, options: options)
        #expect(decoded.bitmap == reference.bitmap, "\(label) \(target)")
        #expect(decoded.usedFastPath == reference.usedFastPath)
        // Whether libjpeg looked past the last scan depends on the path (the DC-only one may stop
        // before it); when it did, the note says so.
        #expect(decoded.notes.allSatisfy { $0 == .missingEndMarker })
        if target == .fullSize { #expect(decoded.notes == [.missingEndMarker], "\(label)") }
        #expect(reference.notes.isEmpty)
    }

    /// Cut inside the scan data at several places, including inside the last MCU row (a few bytes
    /// before the end): `.truncated`, and with `allowTruncated` a padded image with no EOI note.
    /// (Not the 572-byte non-interleaved file: its last scan is too short to cut at these places.)
    @Test(arguments: [0, 1, 2, 4], [0.3, 0.9, -3, -40])
    func cutInsideTheScanIsTruncated(_ index: Int, _ at: Double) throws {
        let (label, make) = Self.files[index]
        let whole = Self.withoutEOI(try make())
        let scan = Self.lastScanStart(whole)
        let end = at < 0 ? whole.count + Int(at) : scan + Int(Double(whole.count - scan) * at)
        let cut = Array(whole[..<end])
        #expect(throws: DecodeError.truncated(name: label)) { try ImageDecoder.decode(cut, name: label) }
        #expect(throws: DecodeError.truncated(name: label)) {
            try ImageDecoder.decode(cut, name: label, options: DecodeOptions(target: .longestEdge(256)))
        }
        let padded = try ImageDecoder.decode(cut, name: label, options: DecodeOptions(allowTruncated: true))
        #expect(!padded.notes.contains(.missingEndMarker))
    }

    /// A progressive file cut between two scans has every scan it holds complete, but its last
    /// refinements are missing: the image is not whole, so it is truncated.
    @Test func progressiveCutBetweenScansIsTruncated() throws {
        let whole = try Self.progressive()
        let cut = Array(whole[..<Self.lastScanStart(whole)])
        #expect(throws: DecodeError.truncated(name: "between scans")) { try ImageDecoder.decode(cut, name: "between scans") }
        let padded = try ImageDecoder.decode(cut, name: "x", options: DecodeOptions(allowTruncated: true))
        #expect(padded.bitmap.width == 1800)
        #expect(!padded.notes.contains(.missingEndMarker))
    }

    /// Cut inside the header (before the first scan): truncated, as before.
    @Test func cutInsideTheHeaderIsTruncated() throws {
        let whole = try Self.baseline()
        let cut = Array(whole[..<400])
        #expect(throws: DecodeError.truncated(name: "header")) { try ImageDecoder.decode(cut, name: "header") }
    }
}
