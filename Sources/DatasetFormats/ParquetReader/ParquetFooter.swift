/// The parts of parquet.thrift's FileMetaData the reader uses: the schema, the row groups and where each
/// column chunk is. Everything else is skipped.
struct ParquetFooter {
    enum PhysicalType: Int32 {
        case boolean = 0, int32 = 1, int64 = 2, int96 = 3, float = 4, double = 5, byteArray = 6, fixedLenByteArray = 7
    }

    struct SchemaElement {
        var name = ""
        var type: Int32? = nil
        var typeLength: Int32 = 0
        var repetition: Int32 = 0       // 0 REQUIRED, 1 OPTIONAL, 2 REPEATED
        var children: Int32 = 0
        var convertedType: Int32? = nil // 0 UTF8
        var logicalString = false       // logicalType STRING (1)
    }

    struct ColumnChunk {
        var path: [String] = []
        var type: Int32 = 0
        var codec: Int32 = 0
        var valueCount: Int64 = 0
        var compressedSize: Int64 = 0
        var dataPageOffset: Int64 = 0
        var dictionaryPageOffset: Int64? = nil
        var externalFile: String? = nil
    }

    struct RowGroup {
        var rowCount: Int64 = 0
        var columns: [ColumnChunk] = []
    }

    var schema: [SchemaElement] = []
    var rowCount: Int64 = 0
    var rowGroups: [RowGroup] = []

    init(_ bytes: UnsafeRawBufferPointer) throws(ParquetFormatProblem) {
        var r = ThriftCompactReader(bytes)
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (2, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { schema.append(try Self.schemaElement(&r)) }
            case (3, .i64): rowCount = try r.i64()
            case (4, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { rowGroups.append(try Self.rowGroup(&r)) }
            default: try r.skip(type)
            }
        }
        r.endStruct()
        guard !schema.isEmpty else { throw ParquetFormatProblem("the footer has no schema") }
    }

    static func schemaElement(_ r: inout ThriftCompactReader) throws(ParquetFormatProblem) -> SchemaElement {
        var e = SchemaElement()
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .i32): e.type = try r.i32()
            case (2, .i32): e.typeLength = try r.i32()
            case (3, .i32): e.repetition = try r.i32()
            case (4, .binary): e.name = try r.string()
            case (5, .i32): e.children = try r.i32()
            case (6, .i32): e.convertedType = try r.i32()
            case (10, .structure):
                // LogicalType is a union: field 1 is STRING.
                try r.beginStruct()
                while let (lid, ltype) = try r.field() {
                    if lid == 1 { e.logicalString = true }
                    try r.skip(ltype)
                }
                r.endStruct()
            default: try r.skip(type)
            }
        }
        r.endStruct()
        return e
    }

    static func rowGroup(_ r: inout ThriftCompactReader) throws(ParquetFormatProblem) -> RowGroup {
        var g = RowGroup()
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .list):
                let (_, count) = try r.listHeader()
                for _ in 0..<count { g.columns.append(try columnChunk(&r)) }
            case (3, .i64): g.rowCount = try r.i64()
            default: try r.skip(type)
            }
        }
        r.endStruct()
        return g
    }

    static func columnChunk(_ r: inout ThriftCompactReader) throws(ParquetFormatProblem) -> ColumnChunk {
        var c = ColumnChunk()
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .binary): c.externalFile = try r.string()
            case (3, .structure):
                try r.beginStruct()
                while let (mid, mtype) = try r.field() {
                    switch (mid, mtype) {
                    case (1, .i32): c.type = try r.i32()
                    case (3, .list):
                        let (_, count) = try r.listHeader()
                        for _ in 0..<count { c.path.append(try r.string()) }
                    case (4, .i32): c.codec = try r.i32()
                    case (5, .i64): c.valueCount = try r.i64()
                    case (7, .i64): c.compressedSize = try r.i64()
                    case (9, .i64): c.dataPageOffset = try r.i64()
                    case (11, .i64): c.dictionaryPageOffset = try r.i64()
                    default: try r.skip(mtype)
                    }
                }
                r.endStruct()
            default: try r.skip(type)
            }
        }
        r.endStruct()
        return c
    }
}

/// parquet.thrift's PageHeader, the parts the reader uses.
struct ParquetPageHeader {
    enum Kind: Int32 { case data = 0, index = 1, dictionary = 2, dataV2 = 3 }

    var kind: Int32 = -1
    var uncompressedSize: Int32 = 0
    var compressedSize: Int32 = 0
    var valueCount: Int32 = 0
    var encoding: Int32 = 0
    // Data page v2 only.
    var nullCount: Int32 = 0
    var definitionLevelsLength: Int32 = 0
    var repetitionLevelsLength: Int32 = 0
    var isCompressed = true

    /// The page at `offset` of a column chunk: its header, its (still compressed) body, and the offset of the
    /// next page; a body that runs past the chunk is refused.
    static func page(in chunk: UnsafeRawBufferPointer, at offset: Int) throws(ParquetFormatProblem)
        -> (header: ParquetPageHeader, body: UnsafeRawBufferPointer, next: Int) {
        let (header, bodyStart) = try read(chunk, at: offset)
        let size = Int(header.compressedSize)
        guard size <= chunk.count - bodyStart else {
            throw ParquetFormatProblem("a page of \(size) bytes runs past its column chunk (\(chunk.count - bodyStart) bytes left)")
        }
        return (header, UnsafeRawBufferPointer(rebasing: chunk[bodyStart..<(bodyStart + size)]), bodyStart + size)
    }

    /// Reads a page header at `offset`; returns it and the offset just past it.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ParquetFormatProblem) -> (ParquetPageHeader, Int) {
        var h = ParquetPageHeader()
        var r = ThriftCompactReader(bytes, offset: offset)
        try r.beginStruct()
        while let (id, type) = try r.field() {
            switch (id, type) {
            case (1, .i32): h.kind = try r.i32()
            case (2, .i32): h.uncompressedSize = try r.i32()
            case (3, .i32): h.compressedSize = try r.i32()
            case (5, .structure), (7, .structure), (8, .structure):
                try r.beginStruct()
                while let (sid, stype) = try r.field() {
                    switch (id, sid, stype) {
                    case (_, 1, .i32): h.valueCount = try r.i32()
                    case (5, 2, .i32), (7, 2, .i32), (8, 4, .i32): h.encoding = try r.i32()
                    case (8, 2, .i32): h.nullCount = try r.i32()
                    case (8, 5, .i32): h.definitionLevelsLength = try r.i32()
                    case (8, 6, .i32): h.repetitionLevelsLength = try r.i32()
                    case (8, 7, .boolTrue), (8, 7, .boolFalse): h.isCompressed = r.bool(stype)
                    default: try r.skip(stype)
                    }
                }
                r.endStruct()
            default: try r.skip(type)
            }
        }
        r.endStruct()
        guard h.compressedSize >= 0, h.uncompressedSize >= 0, h.valueCount >= 0 else {
            throw ParquetFormatProblem("a page header with a negative size or count")
        }
        return (h, r.offset)
    }
}
