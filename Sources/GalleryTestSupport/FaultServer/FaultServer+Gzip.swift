extension FaultServer {
    /// A gzip stream that inflates to `uncompressedBytes` zero bytes, about 1/1000 of that size
    /// on the wire (a 1 GiB bomb is about 1 MiB). Serve it with
    /// `.status(200, headers: ["Content-Encoding": "gzip"], body: bomb)` to test that a client
    /// limits what it decodes, not just what it receives.
    ///
    /// Hand-built, no zlib: one dynamic-Huffman deflate block whose only codes are literal 0 (2
    /// bits), length 258 (1 bit), distance 1 (1 bit) and end-of-block, so every 258 output bytes
    /// cost 2 input bits. `gzip -t` and curl's zlib accept it (see SupportFaultServerTests).
    public static func gzipBomb(uncompressedBytes: Int) -> [UInt8] {
        precondition(uncompressedBytes >= 0)
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(2, count: 2)  // BTYPE = dynamic Huffman
        bits.write(286 - 257, count: 5)  // HLIT: literal/length codes 0...285
        bits.write(1 - 1, count: 5)  // HDIST: one distance code
        // Code-length code lengths, in RFC 1951's permuted order; only 18, 2 and 1 are used.
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
        let codeLengthLengths = [18: 1, 1: 2, 2: 2]
        bits.write(UInt32(order.count - 4), count: 4)  // HCLEN
        for symbol in order { bits.write(UInt32(codeLengthLengths[symbol] ?? 0), count: 3) }
        // Canonical codes of that alphabet: 18 -> 0, 1 -> 10, 2 -> 11.
        func lengthTwo() { bits.writeCode(0b11, length: 2) }
        func lengthOne() { bits.writeCode(0b10, length: 2) }
        func zeros(_ run: Int) {  // symbol 18: a run of 11...138 zero lengths, 7 extra bits
            bits.writeCode(0b0, length: 1)
            bits.write(UInt32(run - 11), count: 7)
        }
        lengthTwo()  // literal 0
        zeros(138)
        zeros(117)  // literals 1...255 unused
        lengthTwo()  // 256, end of block
        zeros(28)  // lengths 257...284 unused
        lengthOne()  // 285, length 258
        lengthOne()  // distance code 0, distance 1
        // Literal/length codes: 285 -> 0, literal 0 -> 10, end of block -> 11. Distance 0 -> 0.
        var remaining = uncompressedBytes
        if remaining > 0 {
            bits.writeCode(0b10, length: 2)
            remaining -= 1
        }
        let matches = remaining / 258
        bits.writeZeros(matches * 2)  // each match: length code "0" + distance code "0"
        for _ in 0..<(remaining % 258) { bits.writeCode(0b10, length: 2) }
        bits.writeCode(0b11, length: 2)
        return gzipMember(deflate: bits.finish(), crc: CRC32.ofZeros(count: uncompressedBytes),
                          size: uncompressedBytes)
    }

    /// Wraps `bytes` in a gzip stream made of stored (uncompressed) deflate blocks: valid for
    /// every decoder, no zlib needed, and what matters for tests is the encoding, not the ratio.
    public static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var deflate: [UInt8] = []
        deflate.reserveCapacity(bytes.count + bytes.count / 65_535 * 5 + 5)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final = offset + count == bytes.count
            deflate.append(final ? 1 : 0)  // BFINAL, BTYPE = stored, then padding to the byte
            deflate += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            deflate += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        return gzipMember(deflate: deflate, crc: CRC32.checksum(bytes), size: bytes.count)
    }

    /// RFC 1952 member: fixed header (no name, no mtime, OS unknown), deflate data, CRC32, ISIZE.
    private static func gzipMember(deflate: [UInt8], crc: UInt32, size: Int) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        out += deflate
        out += littleEndian(crc)
        out += littleEndian(UInt32(truncatingIfNeeded: size))
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Deflate's bit order: values least-significant bit first, Huffman codes most-significant first.
struct BitWriter {
    private var bytes: [UInt8] = []
    private var current: UInt8 = 0
    private var used = 0

    mutating func write(_ value: UInt32, count: Int) {
        for index in 0..<count { writeBit((value >> index) & 1 == 1) }
    }

    mutating func writeCode(_ code: UInt32, length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { writeBit((code >> index) & 1 == 1) }
    }

    /// Many zero bits at once: whole bytes are appended directly, so a large bomb is fast.
    mutating func writeZeros(_ count: Int) {
        var left = count
        while left > 0 && used != 0 {
            writeBit(false)
            left -= 1
        }
        bytes += repeatElement(0, count: left / 8)
        for _ in 0..<(left % 8) { writeBit(false) }
    }

    mutating func finish() -> [UInt8] {
        if used > 0 { bytes.append(current) }
        current = 0
        used = 0
        return bytes
    }

    private mutating func writeBit(_ bit: Bool) {
        if bit { current |= 1 << used }
        used += 1
        if used == 8 {
            bytes.append(current)
            current = 0
            used = 0
        }
    }
}
