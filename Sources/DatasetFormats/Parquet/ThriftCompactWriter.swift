/// The Thrift compact protocol, write side only: what Parquet's footer and page headers need (structs,
/// lists, i16/i32/i64, binary, bool). Field headers carry the id as a delta from the previous field when
/// it is 1-15, else the type and a zigzag varint id; integers are zigzag varints; a struct ends with 0.
struct ThriftCompactWriter {
    enum FieldType: UInt8 {
        case boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7
        case binary = 8, list = 9, set = 10, map = 11, structure = 12
    }

    private(set) var bytes: [UInt8] = []
    private var lastFieldID: [Int16] = [0]

    mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = Int(id) - Int(lastFieldID[lastFieldID.count - 1])
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            varint(zigzag(Int64(id)))
        }
        lastFieldID[lastFieldID.count - 1] = id
    }

    mutating func field(_ id: Int16, i32 value: Int32) {
        fieldHeader(id, .i32)
        varint(zigzag(Int64(value)))
    }

    mutating func field(_ id: Int16, i64 value: Int64) {
        fieldHeader(id, .i64)
        varint(zigzag(value))
    }

    mutating func field(_ id: Int16, i16 value: Int16) {
        fieldHeader(id, .i16)
        varint(zigzag(Int64(value)))
    }

    mutating func field(_ id: Int16, bool value: Bool) {
        fieldHeader(id, value ? .boolTrue : .boolFalse)
    }

    mutating func field(_ id: Int16, binary value: [UInt8]) {
        fieldHeader(id, .binary)
        binary(value)
    }

    mutating func field(_ id: Int16, string value: String) { field(id, binary: Array(value.utf8)) }

    /// A struct field: `body` writes its fields; the stop byte is added.
    mutating func field(_ id: Int16, struct body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .structure)
        structBody(body)
    }

    /// A list field of `count` elements of `elementType`; `body` writes the elements.
    mutating func field(_ id: Int16, listOf elementType: FieldType, count: Int, _ body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .list)
        listHeader(elementType, count: count)
        body(&self)
    }

    mutating func listHeader(_ elementType: FieldType, count: Int) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType.rawValue)
        } else {
            bytes.append(0xF0 | elementType.rawValue)
            varint(UInt64(count))
        }
    }

    /// A struct as a list element or top-level value: fields numbered afresh, then the stop byte.
    mutating func structBody(_ body: (inout ThriftCompactWriter) -> Void) {
        lastFieldID.append(0)
        body(&self)
        bytes.append(0)
        lastFieldID.removeLast()
    }

    mutating func i32(_ value: Int32) { varint(zigzag(Int64(value))) }

    mutating func binary(_ value: [UInt8]) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
}
