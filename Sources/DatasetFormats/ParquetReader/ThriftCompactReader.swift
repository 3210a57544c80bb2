/// Reads the Thrift compact protocol (Parquet's footer and page headers) from a byte buffer, bounds
/// checked: a field or length running past the buffer is a ``ParquetFormatProblem``, never a trap.
struct ThriftCompactReader {
    enum FieldType: UInt8 {
        case stop = 0, boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7
        case binary = 8, list = 9, set = 10, map = 11, structure = 12
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    private var lastFieldIDs: [Int16] = []
    private var lastFieldID: Int16 = 0
    private var depth = 0

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func byte() throws(ParquetFormatProblem) -> UInt8 {
        guard offset < bytes.count else { throw ParquetFormatProblem("Thrift structure cut short at byte \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() throws(ParquetFormatProblem) -> UInt64 {
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            let b = try byte()
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            guard shift < 64 else { throw ParquetFormatProblem("Thrift varint longer than 64 bits at byte \(offset)") }
        }
    }

    mutating func i64() throws(ParquetFormatProblem) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    mutating func i32() throws(ParquetFormatProblem) -> Int32 {
        let v = try i64()
        guard let n = Int32(exactly: v) else { throw ParquetFormatProblem("Thrift i32 out of range (\(v))") }
        return n
    }

    mutating func binary() throws(ParquetFormatProblem) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else {
            throw ParquetFormatProblem("Thrift string of \(length) bytes runs past the end (\(bytes.count - offset) left)")
        }
        defer { offset += Int(length) }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(length))])
    }

    mutating func string() throws(ParquetFormatProblem) -> String {
        String(decoding: try binary(), as: UTF8.self)
    }

    /// Enters a struct: field ids restart from 0.
    mutating func beginStruct() throws(ParquetFormatProblem) {
        depth += 1
        guard depth <= 32 else { throw ParquetFormatProblem("Thrift structures nested deeper than 32") }
        lastFieldIDs.append(lastFieldID)
        lastFieldID = 0
    }

    mutating func endStruct() {
        depth -= 1
        lastFieldID = lastFieldIDs.popLast() ?? 0
    }

    /// The next field's id and type, or nil at the struct's end. A bool field's value is in its type.
    mutating func field() throws(ParquetFormatProblem) -> (id: Int16, type: FieldType)? {
        let header = try byte()
        guard let type = FieldType(rawValue: header & 0x0F) else {
            throw ParquetFormatProblem("unknown Thrift field type \(header & 0x0F) at byte \(offset - 1)")
        }
        if type == .stop { return nil }
        let delta = Int16(header >> 4)
        if delta == 0 {
            let v = try i64()
            guard let id = Int16(exactly: v) else { throw ParquetFormatProblem("Thrift field id out of range (\(v))") }
            lastFieldID = id
        } else {
            lastFieldID &+= delta
        }
        return (lastFieldID, type)
    }

    /// A list's element type and count.
    mutating func listHeader() throws(ParquetFormatProblem) -> (type: FieldType, count: Int) {
        let header = try byte()
        guard let type = FieldType(rawValue: header & 0x0F) else { throw ParquetFormatProblem("unknown Thrift list element type") }
        var count = UInt64(header >> 4)
        if count == 15 { count = try varint() }
        // Every element takes at least one byte: a count beyond the bytes left is a lie.
        guard count <= UInt64(bytes.count - offset) else {
            throw ParquetFormatProblem("Thrift list of \(count) elements runs past the end")
        }
        return (type, Int(count))
    }

    mutating func bool(_ type: FieldType) -> Bool { type == .boolTrue }

    /// Skips a value of `type` (fields the reader does not use).
    mutating func skip(_ type: FieldType) throws(ParquetFormatProblem) {
        switch type {
        case .stop, .boolTrue, .boolFalse: return
        case .byte: _ = try byte()
        case .i16, .i32, .i64: _ = try varint()
        case .double:
            guard offset + 8 <= bytes.count else { throw ParquetFormatProblem("Thrift double cut short") }
            offset += 8
        case .binary: _ = try binary()
        case .list, .set:
            let (element, count) = try listHeader()
            for _ in 0..<count {
                if element == .boolTrue || element == .boolFalse { _ = try byte() } else { try skip(element) }
            }
        case .map:
            let count = try varint()
            guard count <= UInt64(bytes.count - offset) else { throw ParquetFormatProblem("Thrift map runs past the end") }
            if count > 0 {
                let types = try byte()
                guard let k = FieldType(rawValue: types >> 4), let v = FieldType(rawValue: types & 0x0F) else {
                    throw ParquetFormatProblem("unknown Thrift map types")
                }
                for _ in 0..<count { try skip(k); try skip(v) }
            }
        case .structure:
            try beginStruct()
            while let (_, t) = try field() { try skip(t) }
            endStruct()
        }
    }
}
