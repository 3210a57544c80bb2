import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// The shot's EXIF (camera, lens, exposure, date, GPS) from real photos tagged by exiftool, checked
/// against exiftool's own reading; then hostile blocks: loops, huge counts, offsets past the end.
@Suite("EXIF: camera metadata reader")
struct ExifMetadataTests {
    /// A corpus file copied into `dir` and tagged with ``ExifTool/cameraTags``.
    static func tagged(_ corpus: String, in dir: TempDirectory) throws -> (path: String, bytes: [UInt8]) {
        let path = try dir.write(try Corpus.bytes(corpus), to: (corpus as NSString).lastPathComponent)
        try ExifTool.write(ExifTool.cameraTags, to: path)
        return (path, [UInt8](FileManager.default.contents(atPath: path) ?? Data()))
    }

    static func metadata(_ bytes: [UInt8]) -> ExifMetadata? { bytes.withUnsafeBytes { ExifReader.metadata(in: $0) } }

    @Test(arguments: ["exif-orientation/Landscape_6.jpg", "libjpeg-turbo/testorig.jpg", "png-suite/basn2c08.png", "webp/lossy.webp"])
    func realPhotosTaggedByExifTool(corpus: String) throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let (path, bytes) = try Self.tagged(corpus, in: dir)
        let exif = try #require(Self.metadata(bytes), "no EXIF read from \(corpus)")
        #expect(exif.make == "Canon" && exif.model == "Canon EOS R5" && exif.lens == "RF24-105mm F4 L IS USM")
        #expect(exif.exposureTime == 1.0 / 250 && exif.fNumber == 8 && exif.iso == 200 && exif.focalLength == 35)
        #expect(exif.dateTaken == "2024-05-01T14:30:05+02:00")
        // The reference reader agrees on every number (exiftool -n: decimal degrees, signed by the refs).
        let reference = try ExifTool.read(path)
        #expect((reference["ExposureTime"] as? Double).map { abs($0 - exif.exposureTime!) < 1e-9 } == true)
        #expect((reference["GPSLatitude"] as? Double).map { abs($0 - exif.latitude!) < 1e-6 } == true, "\(reference)")
        #expect((reference["GPSLongitude"] as? Double).map { abs($0 - exif.longitude!) < 1e-6 } == true)
        #expect(reference["GPSAltitude"] as? Double == exif.altitude)
        // The orientation the thumbnailer reads is untouched by the extra tags.
        if corpus.hasSuffix("_6.jpg") { #expect(bytes.withUnsafeBytes { ExifReader.orientation(inJPEG: $0) } == .right) }
    }

    @Test func southWestAndBelowSeaLevelAreNegative() throws {
        let dir = try TempDirectory()
        defer { dir.remove() }
        let path = try dir.write(try Corpus.bytes("libjpeg-turbo/testorig.jpg"), to: "a.jpg")
        try ExifTool.write(["GPSLatitude": "33.8688", "GPSLatitudeRef": "S", "GPSLongitude": "151.2093", "GPSLongitudeRef": "W",
                            "GPSAltitude": "12", "GPSAltitudeRef#": "1"], to: path)
        let exif = try #require(Self.metadata([UInt8](FileManager.default.contents(atPath: path)!)))
        #expect(abs(exif.latitude! + 33.8688) < 1e-6 && abs(exif.longitude! + 151.2093) < 1e-6 && exif.altitude == -12)
        #expect(exif.withoutLocation == nil, "only the location was tagged")
    }

    @Test func photosWithoutExifGiveNil() throws {
        for corpus in ["png-suite/basn2c08.png", "webp/lossy.webp", "jpeg-made/jpg-gray.jpg"] {
            #expect(Self.metadata(try Corpus.bytes(corpus)) == nil, "\(corpus)")
        }
        #expect(Self.metadata([]) == nil)
        #expect(Self.metadata(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)) == nil)
    }

    @Test func withoutLocationKeepsTheCamera() {
        let exif = ExifMetadata(make: "Canon", latitude: 1, longitude: 2, altitude: 3)
        #expect(exif.withoutLocation == ExifMetadata(make: "Canon"))
        #expect(exif.hasLocation && !(exif.withoutLocation?.hasLocation ?? true))
    }

    @Test func datesAreCheckedNotTrusted() throws {
        func date(_ value: String, offset: String? = nil) throws -> String? {
            var block = ExifBlock(little: true)
            block.exif.append((0x9003, 2, Array(value.utf8) + [0], nil))
            if let offset { block.exif.append((0x9011, 2, Array(offset.utf8) + [0], nil)) }
            return block.bytes.withUnsafeBytes { ExifReader.metadata(inTIFF: $0) }?.dateTaken
        }
        #expect(try date("2024:05:01 14:30:05") == "2024-05-01T14:30:05")
        #expect(try date("2024:05:01 14:30:05", offset: "-05:30") == "2024-05-01T14:30:05-05:30")
        #expect(try date("2024:05:01 14:30:05", offset: "<b>") == "2024-05-01T14:30:05")
        for junk in ["0000:00:00 00:00:00", "2024:13:01 00:00:00", "<script>alert(1)", "2024-05-01 14:30:05", "    :  :     :  :  "] {
            #expect(try date(junk) == nil, "\(junk)")
        }
    }

    @Test(arguments: [true, false])
    func hostileBlocksNeverTrapOrLoop(little: Bool) {
        var cases: [(String, [UInt8])] = []
        // The Exif IFD pointer and the GPS pointer both point back at IFD0, and at each other.
        var loop = ExifBlock(little: little)
        loop.pointToIFD0 = true
        cases.append(("IFD pointers back to IFD0", loop.bytes))
        // A string claiming 4 GB, a rational array claiming 2^32 - 1 values, offsets past the end.
        var huge = ExifBlock(little: little)
        huge.ifd0.append((0x010F, 2, [0xFF, 0xFF, 0xFF, 0xFF], count: 0xFFFF_FFFF))
        huge.exif.append((0x829A, 5, [0xFF, 0xFF, 0xFF, 0xF0], count: 0xFFFF_FFFF))
        huge.exif.append((0x920A, 5, [0x7F, 0xFF, 0xFF, 0xFF], count: 1))
        cases.append(("huge counts and offsets", huge.bytes))
        // Zero denominators and an IFD0 entry count past the end of the block.
        var zero = ExifBlock(little: little)
        zero.exif.append((0x829D, 5, [0, 0, 0, 1, 0, 0, 0, 0], count: 1))
        zero.gps = [(0x0002, 5, [UInt8](repeating: 0, count: 24), count: 3), (0x0004, 5, [UInt8](repeating: 0, count: 24), count: 3)]
        cases.append(("zero denominators", zero.bytes))
        var long = zero.bytes
        long[little ? 8 : 9] = 0xFF
        long[little ? 9 : 8] = 0xFF
        cases.append(("65,535 entries claimed", long))
        for (name, bytes) in cases {
            let exif = bytes.withUnsafeBytes { ExifReader.metadata(inTIFF: $0) }
            for value in [exif?.exposureTime, exif?.fNumber, exif?.focalLength, exif?.latitude, exif?.longitude, exif?.altitude] {
                #expect(value.map { $0.isFinite } ?? true, "\(name)")
            }
            #expect(exif?.make == nil && exif?.fNumber == nil, "\(name): \(String(describing: exif))")
            #expect((try? JSONEncoder().encode(exif)) != nil, "\(name)")
            // Every truncation of the block is safe too.
            for end in stride(from: 0, through: bytes.count, by: 3) {
                _ = Array(bytes[..<end]).withUnsafeBytes { ExifReader.metadata(inTIFF: $0) }
            }
        }
    }

    @Test func stringsAreCutAndKeptAsText() {
        var block = ExifBlock(little: false)
        let long = Array("<img src=x onerror=alert(1)>".utf8) + [UInt8](repeating: 0x41, count: 1000) + [0]
        block.ifd0.append((0x0110, 2, long, count: nil))
        block.ifd0.append((0x010F, 2, [0xC3, 0x28, 0x20, 0] , count: nil))  // invalid UTF-8 is repaired
        let exif = block.bytes.withUnsafeBytes { ExifReader.metadata(inTIFF: $0) }
        #expect(exif?.model?.hasPrefix("<img src=x onerror=alert(1)>") == true && exif?.model?.utf8.count == 256)
        #expect(exif?.make == "\u{FFFD}(")
    }

    /// Inputs the `exif` fuzz target found, replayed: each must read without trap and keep the invariants.
    @Test func fuzzRegressions() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/exif-fuzz-regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
            // srational-latitude-out-of-range: SRATIONAL degrees gave a latitude of -701792.
            let exif = bytes.withUnsafeBytes { ExifReader.metadata(inTIFF: $0) }
            #expect(exif?.latitude.map { abs($0) <= 90 } ?? true, "\(file): \(String(describing: exif))")
            #expect(exif?.longitude.map { abs($0) <= 180 } ?? true, "\(file)")
            #expect((exif?.latitude == nil) == (exif?.longitude == nil), "\(file)")
        }
    }
}

/// A hand-made TIFF block: IFD0, an Exif IFD and a GPS IFD, each entry (tag, type, data, count),
/// data longer than 4 bytes placed after the IFDs.
struct ExifBlock {
    typealias Entry = (tag: UInt16, type: UInt16, data: [UInt8], count: UInt32?)
    var little: Bool
    var ifd0: [Entry] = []
    var exif: [Entry] = []
    var gps: [Entry] = []
    /// Point the Exif and GPS IFD pointers at IFD0 itself.
    var pointToIFD0 = false

    init(little: Bool) { self.little = little }

    func u16(_ v: UInt16) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return little ? b.reversed() : b
    }

    var bytes: [UInt8] {
        let first = ifd0 + [(0x8769, 4, [], nil), (0x8825, 4, [], nil)] as [Entry]
        let size = { (entries: [Entry]) in 2 + entries.count * 12 + 4 }
        let exifAt = 8 + size(first), gpsAt = exifAt + size(exif)
        var dataAt = gpsAt + size(gps)
        var tail: [UInt8] = []
        func ifd(_ entries: [Entry]) -> [UInt8] {
            var out = u16(UInt16(entries.count))
            for entry in entries {
                let count = entry.count ?? UInt32(entry.tag == 0x8769 || entry.tag == 0x8825 ? 1 : entry.type == 2 || entry.type == 7 ? entry.data.count : entry.type == 5 ? entry.data.count / 8 : max(1, entry.data.count / 2))
                out += u16(entry.tag) + u16(entry.type) + u32(count)
                if entry.tag == 0x8769 { out += u32(UInt32(pointToIFD0 ? 8 : exifAt)) }
                else if entry.tag == 0x8825 { out += u32(UInt32(pointToIFD0 ? exifAt : gpsAt)) }
                else if entry.data.count <= 4 { out += entry.data + [UInt8](repeating: 0, count: 4 - entry.data.count) }
                else { out += u32(UInt32(dataAt)); tail += entry.data; dataAt += entry.data.count }
            }
            return out + u32(0)
        }
        let header = (little ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
        let body = ifd(first) + ifd(exif) + ifd(gps)
        return header + body + tail
    }
}
