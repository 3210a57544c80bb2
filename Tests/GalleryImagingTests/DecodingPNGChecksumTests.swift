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

    /// `png` with the zlib stream's Adler-32 (the last 4 data bytes of the last IDAT) flipped, and the
    /// chunk's CRC recomputed when `fixCRC`.
    static func damagedAdler(_ png: [UInt8], fixCRC: Bool) throws -> [UInt8] {
        let idat = try #require(PNGChunks.chunks(png).last { $0.type == "IDAT" }, "no IDAT chunk")
        #expect(idat.length >= 4)
        var bytes = png
        bytes[idat.dataEnd - 1] ^= 0xFF
        if fixCRC { bytes.replaceSubrange(idat.dataEnd..<idat.end, with: PNGChunks.uint32(PNGChunks.crc(of: idat, in: bytes))) }
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
