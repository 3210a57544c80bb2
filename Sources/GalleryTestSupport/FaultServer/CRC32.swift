/// CRC-32 (IEEE, reflected, as in gzip and PNG chunks), for the gzip helpers and the tests that
/// rewrite PNG chunks.
public enum CRC32 {
    private static let polynomial: UInt32 = 0xEDB8_8320

    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
        return crc
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC of `count` zero bytes in O(log count): feeding a zero bit is a linear map on the
    /// register, so raise its GF(2) matrix to the power 8 * count by squaring (the trick behind
    /// zlib's crc32_combine). Hashing a gigabyte byte by byte would take many seconds in debug.
    static func ofZeros(count: Int) -> UInt32 {
        var oneBit = [UInt32](repeating: 0, count: 32)
        oneBit[0] = polynomial
        for bit in 1..<32 { oneBit[bit] = 1 << (bit - 1) }
        var power = oneBit
        var register: UInt32 = 0xFFFF_FFFF
        var exponent = UInt64(count) * 8
        while exponent > 0 {
            if exponent & 1 == 1 { register = times(power, register) }
            power = (0..<32).map { times(power, power[$0]) }
            exponent >>= 1
        }
        return register ^ 0xFFFF_FFFF
    }

    private static func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
        var sum: UInt32 = 0
        var rest = vector
        var column = 0
        while rest != 0 {
            if rest & 1 == 1 { sum ^= matrix[column] }
            rest >>= 1
            column += 1
        }
        return sum
    }
}
