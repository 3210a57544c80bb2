import GalleryImaging
import GalleryTestSupport
import Testing

/// Which of a PNG's two checksums the decoder checks. The zlib stream's Adler-32 (over the inflated
/// rows) is skipped for speed, as libvips does by default; every chunk's CRC-32 (over the compressed
/// bytes) is still checked, so a damaged IDAT is still refused.
@Suite("Decoding: PNG checksums")
struct DecodingPNGChecksumTests {
    /// A photograph as PNG, and its pixels.
    static func photoPNG() throws -> (png: [UInt8], full: Bitmap) {
        let full = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                           options: DecodeOptions(target: .longestEdge(300))).bitmap
        return (try ImageEncoder.encodePNG(full), full)
    }

    /// The offset of the last IDAT chunk's length field.
    static func lastIDAT(_ png: [UInt8]) throws -> Int {
        var pos = 8, last: Int?
        while pos + 8 <= png.count {
            let length = png[pos..<pos + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(png[pos + 4..<pos + 8]) == Array("IDAT".utf8) { last = pos }
            pos += length + 12
        }
        return try #require(last, "no IDAT chunk")
    }

    /// CRC-32 (ISO 3309, as PNG chunks use) of `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `png` with the zlib stream's Adler-32 (the last 4 data bytes of the last IDAT) flipped, and the
    /// chunk's CRC recomputed when `fixCRC`.
    static func damagedAdler(_ png: [UInt8], fixCRC: Bool) throws -> [UInt8] {
        var bytes = png
        let chunk = try lastIDAT(png)
        let length = png[chunk..<chunk + 4].reduce(0) { $0 << 8 | Int($1) }
        let dataEnd = chunk + 8 + length
        #expect(length >= 4)
        bytes[dataEnd - 1] ^= 0xFF
        if fixCRC {
            let crc = crc32(bytes[(chunk + 4)..<dataEnd])
            for i in 0..<4 { bytes[dataEnd + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
        }
        return bytes
    }

    @Test func wrongAdler32WithGoodCRCsDecodesTheSamePixels() throws {
        let (png, full) = try Self.photoPNG()
        let damaged = try Self.damagedAdler(png, fixCRC: true)
        #expect(damaged != png)
        let image = try ImageDecoder.decode(damaged, name: "adler.png")
        #expect(DecodingFixtures.differingBytes(image.bitmap, full) == 0)
        // The reduced (row-streaming) path too.
        let reduced = try ImageDecoder.decode(damaged, name: "adler.png", options: DecodeOptions(target: .longestEdge(64)))
        let reference = try ImageDecoder.decode(png, name: "good.png", options: DecodeOptions(target: .longestEdge(64)))
        #expect(DecodingFixtures.differingBytes(reduced.bitmap, reference.bitmap) == 0)
    }

    @Test func damagedIDATIsStillRefusedByItsCRC() throws {
        let (png, _) = try Self.photoPNG()
        let damaged = try Self.damagedAdler(png, fixCRC: false)
        #expect(throws: DecodeError.self) { try ImageDecoder.decode(damaged, name: "crc.png") }
        #expect(throws: DecodeError.self) {
            try ImageDecoder.decode(damaged, name: "crc.png", options: DecodeOptions(target: .longestEdge(64)))
        }
    }
}
