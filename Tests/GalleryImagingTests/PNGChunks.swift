import GalleryTestSupport

/// Reads and rewrites PNG chunk streams for the tests (colour chunks, damaged checksums).
enum PNGChunks {
    /// One chunk: the offset of its length field, its type and its data length.
    struct Chunk {
        let offset: Int
        let type: String
        let length: Int
        /// Where its data ends (its CRC follows).
        var dataEnd: Int { offset + 8 + length }
        /// Where the next chunk starts.
        var end: Int { dataEnd + 4 }
    }

    static func uint32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// The chunks after the signature, in file order.
    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var found: [Chunk] = []
        var pos = 8
        while pos + 8 <= png.count {
            let length = Int(png[pos]) << 24 | Int(png[pos + 1]) << 16 | Int(png[pos + 2]) << 8 | Int(png[pos + 3])
            let chunk = Chunk(offset: pos, type: String(decoding: png[(pos + 4)..<(pos + 8)], as: UTF8.self), length: length)
            found.append(chunk)
            pos = chunk.end
        }
        return found
    }

    /// `png` without its colour chunks, and with `chunks` put right after IHDR.
    static func replacingColorChunks(_ png: [UInt8], with chunks: [(String, [UInt8])]) -> [UInt8] {
        var out = Array(png[0..<8])
        for chunk in Self.chunks(png) {
            if !["iCCP", "sRGB", "gAMA", "cHRM"].contains(chunk.type) { out += png[chunk.offset..<chunk.end] }
            if chunk.type == "IHDR" { for (name, data) in chunks { out += Self.chunk(name, data) } }
        }
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return uint32(UInt32(data.count)) + body + uint32(CRC32.checksum(body))
    }

    /// The CRC a chunk's type and data should have.
    static func crc(of chunk: Chunk, in png: [UInt8]) -> UInt32 {
        CRC32.checksum(Array(png[(chunk.offset + 4)..<chunk.dataEnd]))
    }
}
