/// A Parquet file of one flat schema of optional columns, streamed to a `DatasetFileHandle` one row group
/// at a time: each column of a row group is one DataPage v1 (PLAIN values, RLE/bit-packed definition
/// levels), compressed with `compression`; the footer (Thrift compact) goes out on `close()`. Only the
/// current row group is held: it is written when it has `maxRowsPerGroup` rows (img2dataset's
/// BufferedParquetWriter flushes every 100) or `maxBytesPerGroup` bytes, whichever comes first.
public final class ParquetWriter {
    public let handle: any DatasetFileHandle
    public let columns: [ParquetColumn]
    public let compression: ParquetCompression
    public let maxRowsPerGroup: Int
    public let maxBytesPerGroup: Int
    /// The footer's `created_by`.
    public static let createdBy = "fetch-gallery DatasetFormats"

    private var buffers: [ParquetColumnBuffer]
    private var rowGroups: [RowGroupInfo] = []
    private var offset: Int64 = 0
    private var bufferedBytes = 0
    private var closed = false
    private let compressor: ParquetCompressor
    // Reused from one row group to the next, with the column buffers, so memory is allocated once.
    private var pageBuffer: [UInt8] = []
    private var compressedBuffer: [UInt8] = []
    private static let magic: [UInt8] = Array("PAR1".utf8)

    public init(handle: any DatasetFileHandle, columns: [ParquetColumn], compression: ParquetCompression = .snappy,
                maxRowsPerGroup: Int = 100, maxBytesPerGroup: Int = 64 << 20) throws(DatasetFormatError) {
        guard !columns.isEmpty else { throw .invalidSchema("\(handle.name): a Parquet file needs a column") }
        var seen = Set<String>()
        for column in columns where column.name.isEmpty || !seen.insert(column.name).inserted {
            throw .invalidSchema("\(handle.name): column name '\(column.name)' is empty or repeated")
        }
        self.handle = handle
        self.columns = columns
        self.compression = compression
        self.maxRowsPerGroup = max(1, maxRowsPerGroup)
        self.maxBytesPerGroup = max(1, maxBytesPerGroup)
        self.compressor = ParquetCompressor(compression: compression)
        buffers = columns.map(ParquetColumnBuffer.init(column:))
        try handle.write(Self.magic)
        offset = 4
    }

    /// The rows written so far, flushed or buffered.
    public var rowCount: Int { rowGroups.reduce(0) { $0 + Int($1.numRows) } + buffers[0].rowCount }

    /// Appends one row: one value per column, in column order, each of its column's type or `.null`.
    public func append(_ row: [ParquetValue]) throws(DatasetFormatError) {
        guard !closed else { throw .closed(file: handle.name) }
        guard row.count == columns.count else {
            throw .schemaMismatch(file: handle.name, reason: "a row of \(row.count) values for \(columns.count) columns")
        }
        for (index, value) in row.enumerated() where !Self.fits(value, columns[index].kind) {
            throw .schemaMismatch(file: handle.name,
                                  reason: "column '\(columns[index].name)' is \(columns[index].kind), not \(value)")
        }
        for index in row.indices {
            let before = buffers[index].byteCount
            _ = buffers[index].append(row[index])
            bufferedBytes += buffers[index].byteCount - before
        }
        if buffers[0].rowCount >= maxRowsPerGroup || bufferedBytes >= maxBytesPerGroup {
            try flushRowGroup()
        }
    }

    /// Writes the last row group and the footer, then closes the handle. A file with no rows has no row group.
    public func close() throws(DatasetFormatError) {
        guard !closed else { throw .closed(file: handle.name) }
        try flushRowGroup()
        closed = true
        let footer = ParquetMetadata.footer(columns: columns, rowGroups: rowGroups, createdBy: Self.createdBy)
        try handle.write(footer)
        let length = UInt32(footer.count)
        try handle.write((0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * UInt32($0))) })
        try handle.write(Self.magic)
        try handle.close()
    }

    private func flushRowGroup() throws(DatasetFormatError) {
        let rows = buffers[0].rowCount
        guard rows > 0 else { return }
        var chunks: [ColumnChunkInfo] = []
        for index in buffers.indices {
            let column = buffers[index].column, nullCount = Int64(buffers[index].nullCount)
            buffers[index].pageBody(into: &pageBuffer)
            let compressedCount = try compressor.compress(pageBuffer, into: &compressedBuffer, file: handle.name)
            let stored = compression == .none ? pageBuffer.count : compressedCount
            guard pageBuffer.count <= Int(Int32.max), stored <= Int(Int32.max) else {
                throw .tooLarge(file: handle.name, what: "page of column '\(column.name)'", bytes: pageBuffer.count)
            }
            let header = ParquetMetadata.dataPageHeader(
                numValues: Int32(buffers[index].valueCount), uncompressedSize: Int32(pageBuffer.count), compressedSize: Int32(stored),
                nullCount: nullCount)
            chunks.append(ColumnChunkInfo(
                column: column, codec: compressor.codec, numValues: Int64(buffers[index].valueCount), nullCount: nullCount,
                uncompressedSize: Int64(header.count + pageBuffer.count), compressedSize: Int64(header.count + stored),
                dataPageOffset: offset))
            try handle.write(header)
            let source = compression == .none ? pageBuffer : compressedBuffer
            let result: Result<Void, DatasetFormatError> = source.withUnsafeBytes { raw in
                do throws(DatasetFormatError) {
                    try handle.write(UnsafeRawBufferPointer(rebasing: raw[0..<stored])); return .success(())
                } catch { return .failure(error) }
            }
            try result.get()
            offset += Int64(header.count + stored)
            buffers[index].reset()
        }
        rowGroups.append(RowGroupInfo(columns: chunks, numRows: Int64(rows)))
        bufferedBytes = 0
    }

    private static func fits(_ value: ParquetValue, _ kind: ParquetColumn.Kind) -> Bool {
        switch (value, kind) {
        case (.null, _), (.string, .string), (.binary, .binary), (.int32, .int32), (.int64, .int64),
             (.double, .double), (.bool, .bool), (.doubleLists, .doubleLists):
            return true
        default:
            return false
        }
    }
}
