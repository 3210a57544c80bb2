import GalleryImaging
import GalleryTestSupport
import Testing

@Suite("Decoding: EXIF orientation parser")
struct DecodingExifTests {
    /// A TIFF block with one IFD0 entry (tag, type, value) in the given byte order.
    static func tiff(little: Bool, tag: UInt16 = 0x0112, type: UInt16 = 3, value: UInt32 = 6, entries: Int = 1) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { little ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return little ? b.reversed() : b
        }
        // SHORT values sit left-justified in the 4-byte value field.
        let field = type == 3 ? u16(UInt16(value)) + [0, 0] : u32(value)
        var out = (little ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8) + u16(UInt16(entries))
        out += u16(0x0100) + u16(4) + u32(1) + u32(640)  // ImageWidth first, as cameras write it
        out += u16(tag) + u16(type) + u32(1) + field
        return out + u32(0)
    }

    static func jpeg(withAPP1 payloads: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        for payload in payloads {
            let length = payload.count + 2
            out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return out + [0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
    }

    static func orientation(_ bytes: [UInt8]) -> Orientation? {
        bytes.withUnsafeBytes { ExifReader.orientation(inJPEG: $0) }
    }

    @Test(arguments: [true, false], 1...8)
    func bothByteOrders(little: Bool, value: Int) {
        let exif = Array("Exif".utf8) + [0, 0] + Self.tiff(little: little, value: UInt32(value), entries: 2)
        #expect(Self.orientation(Self.jpeg(withAPP1: [exif])) == Orientation(rawValue: value))
    }

    @Test func zeroAndJunkValuesMeanUp() {
        for value: UInt32 in [0, 9, 65535] {
            let exif = Array("Exif".utf8) + [0, 0] + Self.tiff(little: true, value: value, entries: 2)
            #expect(Self.orientation(Self.jpeg(withAPP1: [exif])) == .up)
        }
    }

    @Test func longTypeIsTolerated() {
        let exif = Array("Exif".utf8) + [0, 0] + Self.tiff(little: false, type: 4, value: 8, entries: 2)
        #expect(Self.orientation(Self.jpeg(withAPP1: [exif])) == .left)
    }

    @Test func xmpBeforeExifIsSkipped() {
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let exif = Array("Exif".utf8) + [0, 0] + Self.tiff(little: true, value: 3, entries: 2)
        #expect(Self.orientation(Self.jpeg(withAPP1: [xmp, exif])) == .down)
    }

    @Test func malformedBlocksGiveNil() {
        let good = Self.tiff(little: true, value: 6, entries: 2)
        // IFD entry count larger than the block: reads stop at the end, no trap.
        var lying = Self.tiff(little: true, tag: 0x0110, entries: 2)  // no Orientation tag
        lying[8] = 0xFF; lying[9] = 0x7F
        var badOffset = good
        badOffset[4] = 0xF0; badOffset[5] = 0xFF; badOffset[6] = 0xFF; badOffset[7] = 0x7F
        for block in [Array(good.prefix(7)), Array(good.prefix(20)), lying, badOffset, Array("XX*\0".utf8)] {
            #expect(block.withUnsafeBytes { ExifReader.orientation(inTIFF: $0) } == nil)
        }
        #expect(Self.orientation(Self.jpeg(withAPP1: [])) == nil)
        #expect(Self.orientation([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45]) == nil)  // length past the end
        // Every prefix of a real EXIF JPEG parses without trapping.
        let real = Self.jpeg(withAPP1: [Array("Exif".utf8) + [0, 0] + good])
        for n in 0...real.count { _ = Self.orientation(Array(real.prefix(n))) }
    }

    @Test func pngEXIfChunk() throws {
        let info = try ImageDecoder.probe(Corpus.bytes("png-image-rs/F-exif-chunk-early.png"), name: "exif.png")
        #expect(info.orientation == .right)
        let image = try ImageDecoder.decode(fileAt: Corpus.path("png-image-rs/F-exif-chunk-early.png"))
        #expect(image.orientation == .right)
    }

    @Test func orientationIsReportedNotApplied() throws {
        let image = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_6.jpg"))
        #expect(image.orientation == .right)
        #expect(image.bitmap.width == 1200 && image.bitmap.height == 1800)  // as stored
    }
}
