/// A value read from a Parquet column. BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (and INT96) come as bytes;
/// ``string`` reads them as UTF-8 text, the way a URL or caption column is meant.
public enum ParquetReadValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int32(Int32)
    case int64(Int64)
    case float(Float)
    case double(Double)
    case bytes([UInt8])
    /// A list column's value (a list of lists for `list<list<double>>`, as DataComp's `face_bboxes`).
    indirect case list([ParquetReadValue])

    /// The value as text: bytes as UTF-8, numbers and booleans as Python's str() writes them; nil for null.
    public var string: String? {
        switch self {
        case .null: return nil
        case .bool(let b): return b ? "True" : "False"
        case .int32(let n): return String(n)
        case .int64(let n): return String(n)
        case .float(let x): return "\(x)"
        case .double(let x): return "\(x)"
        case .bytes(let b): return String(decoding: b, as: UTF8.self)
        case .list(let items): return "[" + items.map { $0.string ?? "None" }.joined(separator: ", ") + "]"
        }
    }
}

/// The RLE / bit-packed hybrid (definition levels, dictionary indices, v2 booleans): runs of a repeated
/// value and groups of 8 bit-packed values, each introduced by a ULEB128 header.
struct RLEHybridDecoder {
    let bytes: UnsafeRawBufferPointer
    let bitWidth: Int
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, bitWidth: Int) {
        self.bytes = bytes
        self.bitWidth = bitWidth
        offset = 0
    }

    /// Decodes `count` values, appending them to `out`.
    mutating func decode(_ count: Int, into out: inout [UInt32]) throws(ParquetFormatProblem) {
        guard bitWidth <= 32 else { throw ParquetFormatProblem("a bit width of \(bitWidth)") }
        var left = count
        let valueBytes = (bitWidth + 7) / 8
        while left > 0 {
            var header: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard offset < bytes.count, shift < 64 else { throw ParquetFormatProblem("RLE/bit-packed run cut short (\(left) of \(count) values missing)") }
                let b = bytes[offset]; offset += 1
                header |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { break }
                shift += 7
            }
            if header & 1 == 0 {
                let run = Int(clamping: header >> 1)
                guard offset + valueBytes <= bytes.count else { throw ParquetFormatProblem("RLE run value cut short") }
                var value: UInt32 = 0
                for i in 0..<valueBytes { value |= UInt32(bytes[offset + i]) << (8 * i) }
                offset += valueBytes
                let n = min(run, left)
                out.append(contentsOf: repeatElement(value, count: n))
                left -= n
            } else {
                let groups = Int(clamping: header >> 1)
                let valuesInRun = groups &* 8
                let runBytes = groups &* bitWidth
                guard groups <= bytes.count, runBytes <= bytes.count - offset else { throw ParquetFormatProblem("bit-packed run past the end of its page") }
                let mask: UInt64 = bitWidth == 32 ? 0xFFFF_FFFF : (1 << UInt64(bitWidth)) - 1
                let n = min(valuesInRun, left)
                var bit = 0
                for _ in 0..<n {
                    var value: UInt64 = 0
                    var got = 0
                    while got < bitWidth {
                        let byteIndex = offset + (bit >> 3), within = bit & 7
                        let take = min(8 - within, bitWidth - got)
                        value |= UInt64((bytes[byteIndex] >> UInt8(within)) & UInt8((1 << take) - 1)) << UInt64(got)
                        got += take; bit += take
                    }
                    out.append(UInt32(value & mask))
                }
                offset += runBytes
                left -= n
            }
        }
    }

    /// The bit width needed for values up to `max`.
    static func width(for max: Int) -> Int { max == 0 ? 0 : Int.bitWidth - max.leadingZeroBitCount }
}

/// PLAIN-encoded values of one physical type.
enum PlainDecoder {
    static func decode(_ bytes: UnsafeRawBufferPointer, type: ParquetFooter.PhysicalType, typeLength: Int, count: Int,
                       into out: inout [ParquetReadValue]) throws(ParquetFormatProblem) {
        var at = 0
        func need(_ n: Int) throws(ParquetFormatProblem) {
            guard n >= 0, n <= bytes.count - at else { throw ParquetFormatProblem("PLAIN \(type) values run past the end of their page") }
        }
        switch type {
        case .boolean:
            try need((count + 7) / 8)
            for i in 0..<count { out.append(.bool(bytes[i >> 3] >> UInt8(i & 7) & 1 == 1)) }
        case .int32:
            try need(4 * count)
            for i in 0..<count { out.append(.int32(Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self).littleEndian))) }
        case .int64:
            try need(8 * count)
            for i in 0..<count { out.append(.int64(Int64(bitPattern: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self).littleEndian))) }
        case .float:
            try need(4 * count)
            for i in 0..<count { out.append(.float(Float(bitPattern: bytes.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self).littleEndian))) }
        case .double:
            try need(8 * count)
            for i in 0..<count { out.append(.double(Double(bitPattern: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self).littleEndian))) }
        case .int96, .fixedLenByteArray:
            let size = type == .int96 ? 12 : typeLength
            try need(size * count)
            for i in 0..<count { out.append(.bytes(Array(bytes[(size * i)..<(size * i + size)]))) }
        case .byteArray:
            for _ in 0..<count {
                try need(4)
                let length = Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                at += 4
                try need(length)
                out.append(.bytes(Array(bytes[at..<(at + length)])))
                at += length
            }
        }
    }
}
