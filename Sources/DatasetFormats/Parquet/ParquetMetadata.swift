/// A column of the flat schema the writer makes: every column optional (a null is Python's None).
public struct ParquetColumn: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// BYTE_ARRAY annotated STRING / UTF8, as pyarrow writes `pa.string()`.
        case string
        case int32, int64, double, bool
        /// Plain BYTE_ARRAY, as pyarrow writes `pa.binary()` (the `parquet` format's image column).
        case binary
        /// `list<list<double>>` in pyarrow's three-level layout: `NAME (LIST) / list / element (LIST) / list /
        /// element`, levels up to repetition 2 and definition 5.
        case doubleLists
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Parquet's physical `Type`.
    var physicalType: Int32 {
        switch kind {
        case .bool: return 0
        case .int32: return 1
        case .int64: return 2
        case .double, .doubleLists: return 5
        case .string, .binary: return 6
        }
    }
}

/// Where one column chunk of a row group landed, for the footer.
struct ColumnChunkInfo {
    var column: ParquetColumn
    var codec: Int32
    var numValues: Int64
    var nullCount: Int64
    var uncompressedSize: Int64  // page header included, as the format counts it
    var compressedSize: Int64
    var dataPageOffset: Int64
}

struct RowGroupInfo {
    var columns: [ColumnChunkInfo]
    var numRows: Int64
}

/// Parquet's Thrift structures (parquet.thrift field ids), encoded with `ThriftCompactWriter`.
enum ParquetMetadata {
    static let encodingPlain: Int32 = 0
    static let encodingRLE: Int32 = 3

    /// A DATA_PAGE (v1) header: PLAIN values, RLE definition and repetition levels.
    static func dataPageHeader(numValues: Int32, uncompressedSize: Int32, compressedSize: Int32,
                               nullCount: Int64) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.structBody { page in
            page.field(1, i32: 0)  // PageType.DATA_PAGE
            page.field(2, i32: uncompressedSize)
            page.field(3, i32: compressedSize)
            page.field(5, struct: { header in
                header.field(1, i32: numValues)
                header.field(2, i32: encodingPlain)
                header.field(3, i32: encodingRLE)
                header.field(4, i32: encodingRLE)
                header.field(5, struct: { statistics in statistics.field(3, i64: nullCount) })
            })
        }
        return thrift.bytes
    }

    /// FileMetaData: version 1, the schema (a root group, then one optional leaf per column), the row groups.
    static func footer(columns: [ParquetColumn], rowGroups: [RowGroupInfo], createdBy: String) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.structBody { file in
            file.field(1, i32: 1)
            let nested = columns.filter { $0.kind == .doubleLists }.count
            file.field(2, listOf: .structure, count: columns.count + 1 + 4 * nested) { list in
                list.structBody { root in
                    root.field(4, string: "schema")
                    root.field(5, i32: Int32(columns.count))
                }
                for column in columns {
                    if column.kind == .doubleLists {
                        // Groups: optional LIST, repeated `list`, optional LIST `element`, repeated `list`; the leaf.
                        for (name, repetition, isList) in [(column.name, 1, true), ("list", 2, false), ("element", 1, true), ("list", 2, false)] {
                            list.structBody { element in
                                element.field(3, i32: Int32(repetition))
                                element.field(4, string: name)
                                element.field(5, i32: 1)
                                if isList {
                                    element.field(6, i32: 3)  // ConvertedType.LIST
                                    element.field(10, struct: { logical in logical.field(3, struct: { _ in }) })  // LogicalType.LIST
                                }
                            }
                        }
                        list.structBody { element in
                            element.field(1, i32: 5)
                            element.field(3, i32: 1)
                            element.field(4, string: "element")
                        }
                        continue
                    }
                    list.structBody { element in schemaElement(column, into: &element) }
                }
            }
            file.field(3, i64: rowGroups.reduce(0) { $0 + $1.numRows })
            file.field(4, listOf: .structure, count: rowGroups.count) { list in
                for (ordinal, group) in rowGroups.enumerated() {
                    list.structBody { row in rowGroup(group, ordinal: ordinal, into: &row) }
                }
            }
            file.field(6, string: createdBy)
        }
        return thrift.bytes
    }

    private static func schemaElement(_ column: ParquetColumn, into element: inout ThriftCompactWriter) {
        element.field(1, i32: column.physicalType)
        element.field(3, i32: 1)  // OPTIONAL
        element.field(4, string: column.name)
        if column.kind == .string {
            element.field(6, i32: 0)  // ConvertedType.UTF8
            element.field(10, struct: { logical in logical.field(1, struct: { _ in }) })  // LogicalType.STRING
        }
    }

    private static func rowGroup(_ group: RowGroupInfo, ordinal: Int, into row: inout ThriftCompactWriter) {
        row.field(1, listOf: .structure, count: group.columns.count) { list in
            for chunk in group.columns {
                list.structBody { columnChunk in
                    columnChunk.field(2, i64: chunk.dataPageOffset)
                    columnChunk.field(3, struct: { meta in columnMetaData(chunk, into: &meta) })
                }
            }
        }
        row.field(2, i64: group.columns.reduce(0) { $0 + $1.uncompressedSize })
        row.field(3, i64: group.numRows)
        row.field(5, i64: group.columns.first?.dataPageOffset ?? 4)
        row.field(6, i64: group.columns.reduce(0) { $0 + $1.compressedSize })
        if ordinal <= Int(Int16.max) { row.field(7, i16: Int16(ordinal)) }
    }

    private static func columnMetaData(_ chunk: ColumnChunkInfo, into meta: inout ThriftCompactWriter) {
        meta.field(1, i32: chunk.column.physicalType)
        meta.field(2, listOf: .i32, count: 2) { list in
            list.i32(encodingPlain)
            list.i32(encodingRLE)
        }
        let path = chunk.column.kind == .doubleLists ? [chunk.column.name, "list", "element", "list", "element"] : [chunk.column.name]
        meta.field(3, listOf: .binary, count: path.count) { list in for part in path { list.binary(Array(part.utf8)) } }
        meta.field(4, i32: chunk.codec)
        meta.field(5, i64: chunk.numValues)
        meta.field(6, i64: chunk.uncompressedSize)
        meta.field(7, i64: chunk.compressedSize)
        meta.field(9, i64: chunk.dataPageOffset)
        meta.field(12, struct: { statistics in statistics.field(3, i64: chunk.nullCount) })
    }
}
