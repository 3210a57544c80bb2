/// One value of a Parquet row; `.null` in any column.
public enum ParquetValue: Sendable, Equatable {
    case null
    case string(String)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case bool(Bool)
    case binary([UInt8])
    /// A `list<list<double>>` cell.
    case doubleLists([[Double]])
}

/// The rows of one column in the current row group: a definition level per row (1 = a value, 0 = null)
/// and the PLAIN encoding of the values that are present, ready to become one data page.
struct ParquetColumnBuffer {
    let column: ParquetColumn
    private(set) var defined: [Bool] = []
    private(set) var nullCount = 0
    private var plain: [UInt8] = []
    private var bools: [Bool] = []
    /// A list column's repetition and definition levels, one per entry (``ParquetColumn/listLevels``).
    private var repetition: [UInt8] = []
    private var definition: [UInt8] = []

    init(column: ParquetColumn) { self.column = column }

    var rowCount: Int { defined.count }
    /// The page's entries: one per row, or for a list column one per level pair.
    var valueCount: Int { column.kind == .doubleLists ? definition.count : defined.count }
    var byteCount: Int { plain.count + bools.count / 8 + defined.count / 8 }

    /// Appends one value; false when its type is not the column's.
    mutating func append(_ value: ParquetValue) -> Bool {
        switch (value, column.kind) {
        case (.null, _):
            defined.append(false)
            nullCount += 1
            if column.kind == .doubleLists { repetition.append(0); definition.append(0) }
            return true
        case (.string(let text), .string):
            var text = text
            text.withUTF8 { appendByteArray(UnsafeRawBufferPointer($0)) }
        case (.binary(let bytes), .binary):
            bytes.withUnsafeBytes { appendByteArray($0) }
        case (.int32(let number), .int32):
            appendLittleEndian(UInt32(bitPattern: number))
        case (.int64(let number), .int64):
            appendLittleEndian(UInt64(bitPattern: number))
        case (.double(let number), .double):
            appendLittleEndian(number.bitPattern)
        case (.bool(let flag), .bool):
            bools.append(flag)
        case (.doubleLists(let lists), .doubleLists):
            // pyarrow's list<list<double>>: 1 an empty outer list, 3 an empty inner one, 5 a value.
            if lists.isEmpty { repetition.append(0); definition.append(1) }
            for (i, list) in lists.enumerated() {
                let first: UInt8 = i == 0 ? 0 : 1
                if list.isEmpty { repetition.append(first); definition.append(3) }
                for (j, number) in list.enumerated() {
                    repetition.append(j == 0 ? first : 2)
                    definition.append(5)
                    appendLittleEndian(number.bitPattern)
                }
            }
        default:
            return false
        }
        defined.append(true)
        return true
    }

    /// Empties the buffer for the next row group, keeping its memory (a fresh one would page-fault its
    /// way up to the row group's size again: the parquet format's image column is megabytes a group).
    mutating func reset() {
        defined.removeAll(keepingCapacity: true)
        plain.removeAll(keepingCapacity: true)
        bools.removeAll(keepingCapacity: true)
        repetition.removeAll(keepingCapacity: true)
        definition.removeAll(keepingCapacity: true)
        nullCount = 0
    }

    /// The page body before compression: the definition levels (RLE/bit-packed hybrid, bit width 1, after
    /// a 4-byte little-endian length, as DataPage v1 has them), then the PLAIN values.
    func pageBody(into body: inout [UInt8]) {
        if column.kind == .doubleLists {
            body.removeAll(keepingCapacity: true)
            for (levels, width) in [(repetition, 2), (definition, 3)] {
                let encoded = Self.bitPacked(levels, width: width)
                let length = UInt32(encoded.count)
                for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
                body.append(contentsOf: encoded)
            }
            body.append(contentsOf: plain)
            return
        }
        let levels = Self.definitionLevels(defined)
        body.removeAll(keepingCapacity: true)
        body.reserveCapacity(4 + levels.count + plain.count + bools.count / 8 + 1)
        let length = UInt32(levels.count)
        for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
        body.append(contentsOf: levels)
        if column.kind == .bool {
            body.append(contentsOf: Self.bitPacked(bools))
        } else {
            body.append(contentsOf: plain)
        }
    }

    /// One RLE run when every level is the same (the usual column without nulls), else bit-packed runs of
    /// up to 63 groups of eight levels (504, the most Arrow's own encoder puts in one run), least
    /// significant bit first, the last group padded with 0.
    static func definitionLevels(_ defined: [Bool]) -> [UInt8] {
        var out: [UInt8] = []
        guard let first = defined.first else { return out }
        if !defined.contains(!first) {
            appendVarint(UInt64(defined.count) << 1, to: &out)
            out.append(first ? 1 : 0)
            return out
        }
        var start = 0
        while start < defined.count {
            let end = min(start + 504, defined.count)
            appendVarint(UInt64((end - start + 7) / 8) << 1 | 1, to: &out)
            out.append(contentsOf: bitPacked(Array(defined[start..<end])))
            start = end
        }
        return out
    }

    /// Levels of `width` bits as bit-packed runs of up to 63 groups of eight, least significant bit first.
    static func bitPacked(_ levels: [UInt8], width: Int) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < levels.count {
            let end = min(start + 504, levels.count)
            let groups = (end - start + 7) / 8
            appendVarint(UInt64(groups) << 1 | 1, to: &out)
            var packed = [UInt8](repeating: 0, count: groups * width)
            for i in 0..<(end - start) {
                for b in 0..<width where levels[start + i] >> UInt8(b) & 1 == 1 {
                    let bit = i * width + b
                    packed[bit >> 3] |= 1 << UInt8(bit & 7)
                }
            }
            out.append(contentsOf: packed)
            start = end
        }
        return out
    }

    static func bitPacked(_ flags: [Bool]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (flags.count + 7) / 8)
        for (i, flag) in flags.enumerated() where flag { out[i >> 3] |= 1 << UInt8(i & 7) }
        return out
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    private mutating func appendByteArray(_ bytes: UnsafeRawBufferPointer) {
        appendLittleEndian(UInt32(bytes.count))
        plain.append(contentsOf: bytes)
    }

    private mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { plain.append(contentsOf: $0) }
    }
}
