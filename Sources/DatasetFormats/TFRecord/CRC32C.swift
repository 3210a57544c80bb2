/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), slicing by eight, and TFRecord's mask.
enum CRC32C {
    static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[0][byte] = crc
        }
        for byte in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][byte]
                tables[slice][byte] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        let t = tables
        var index = 0
        let count = bytes.count
        while count - index >= 8 {
            let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
            crc = t[7][Int(low & 0xFF)] ^ t[6][Int((low >> 8) & 0xFF)]
                ^ t[5][Int((low >> 16) & 0xFF)] ^ t[4][Int(low >> 24)]
                ^ t[3][Int(bytes[index + 4])] ^ t[2][Int(bytes[index + 5])]
                ^ t[1][Int(bytes[index + 6])] ^ t[0][Int(bytes[index + 7])]
            index += 8
        }
        while index < count {
            crc = (crc >> 8) ^ t[0][Int((crc ^ UInt32(bytes[index])) & 0xFF)]
            index += 1
        }
        return ~crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { checksum($0) } }

    /// TFRecord's masked CRC: rotated right by 15 bits, plus a constant.
    static func masked(_ crc: UInt32) -> UInt32 { ((crc >> 15) | (crc << 17)) &+ 0xA282_EAD8 }
}
