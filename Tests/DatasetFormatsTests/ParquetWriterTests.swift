@testable import DatasetFormats
import Foundation
import Testing

/// The Parquet layer read by pyarrow, fastparquet and duckdb: every column type, nulls, every codec,
/// bounded row groups, the empty file, a 100,000-row metadata file.
@Suite struct ParquetWriterTests {
    static let columns: [ParquetColumn] = [
        .init(name: "s", kind: .string), .init(name: "i", kind: .int32), .init(name: "l", kind: .int64),
        .init(name: "d", kind: .double), .init(name: "b", kind: .bool), .init(name: "bin", kind: .binary),
    ]

    /// Row `i`: every seventh all null, others with some nulls of their own, extremes and non-ASCII text.
    static func row(_ i: Int) -> [ParquetValue] {
        if i % 7 == 0 { return Array(repeating: .null, count: columns.count) }
        let extremes: [Int64] = [.min, .max, -1, 0]
        return [
            i % 11 == 3 ? .null : .string("row \(i) — Café 東京 🌸 \"q\""),
            .int32(i % 13 == 1 ? Int32.min : Int32(i) - 500),
            .int64(i % 5 == 1 ? extremes[i % 4] : Int64(i) * 1_000_000_007),
            i % 9 == 2 ? .null : .double(i % 17 == 0 ? -0.0 : Double(i) / 3 - 40),
            .bool(i % 2 == 0),
            i % 4 == 1 ? .null : .binary((0..<(i % 40)).map { UInt8(truncatingIfNeeded: $0 * i) }),
        ]
    }

    static func expected(_ value: ParquetValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .string(let text): return text
        case .int32(let number): return Int(number)
        case .int64(let number): return Int(number)
        case .double(let number): return number
        case .bool(let flag): return flag
        case .binary(let bytes): return Canonical.binary(bytes)
        case .doubleLists(let lists): return lists
        }
    }

    static func write(_ path: String, rows: Int, compression: ParquetCompression, maxRows: Int = 100) throws {
        let sink = try LocalFolderSink(folder: (path as NSString).deletingLastPathComponent)
        let writer = try ParquetWriter(handle: try sink.create((path as NSString).lastPathComponent), columns: columns,
                                       compression: compression, maxRowsPerGroup: maxRows)
        for i in 0..<rows { try writer.append(row(i)) }
        try writer.close()
    }

    @Test(arguments: ParquetCompression.allCases)
    func threeReadersReadEveryValue(compression: ParquetCompression) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.write(folder.file("types.parquet"), rows: 1_037, compression: compression)
        let read = try PythonReader.run(["parquet", folder.file("types.parquet")])

        #expect(Canonical.text(read["schema"]) == Canonical.text([["s", "string"], ["i", "int32"], ["l", "int64"],
                                                                  ["d", "double"], ["b", "bool"], ["bin", "binary"]]))
        #expect(read["logical_types"] as? [String] == ["String", "None", "None", "None", "None", "None"])
        #expect(read["row_groups"] as? [Int] == Array(repeating: 100, count: 10) + [37])
        let codec = ["none": "UNCOMPRESSED", "snappy": "SNAPPY", "zstd": "ZSTD"][compression.rawValue]!
        #expect(read["codecs"] as? [String] == [codec])
        let expected = Canonical.text((0..<1_037).map { Self.row($0).map(Self.expected) })
        #expect(Canonical.text(read["rows"]) == expected, "pyarrow")
        #expect(Canonical.text(read["fastparquet_rows"]) == expected, "fastparquet")
        #expect(Canonical.text(read["duckdb_rows"]) == expected, "duckdb")
        #expect(Canonical.text(read["duckdb_schema"]) == Canonical.text(
            [["s", "VARCHAR"], ["i", "INTEGER"], ["l", "BIGINT"], ["d", "DOUBLE"], ["b", "BOOLEAN"], ["bin", "BLOB"]]))
    }

    @Test func largeRowGroupsSplitTheirLevelsIntoRuns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.write(folder.file("large.parquet"), rows: 12_345, compression: .zstd, maxRows: 5_000)
        let read = try PythonReader.run(["parquet", folder.file("large.parquet")])
        #expect(read["row_groups"] as? [Int] == [5_000, 5_000, 2_345])
        let expected = Canonical.text((0..<12_345).map { Self.row($0).map(Self.expected) })
        #expect(Canonical.text(read["rows"]) == expected, "pyarrow")
        #expect(Canonical.text(read["fastparquet_rows"]) == expected, "fastparquet")
        #expect(Canonical.text(read["duckdb_rows"]) == expected, "duckdb")
        // 1,000 levels with a null: two bit-packed runs, of 63 groups (504 levels) and 62 groups (496).
        let levels = ParquetColumnBuffer.definitionLevels((0..<1_000).map { $0 != 3 })
        #expect(levels[0] == 63 << 1 | 1 && levels[1 + 63] == 62 << 1 | 1 && levels.count == 1 + 63 + 1 + 62)
        #expect(ParquetColumnBuffer.definitionLevels(Array(repeating: true, count: 300)) == [0xD8, 0x04, 1])
    }

    @Test func emptyFileHasTheSchemaAndNoRowGroup() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.write(folder.file("empty.parquet"), rows: 0, compression: .snappy)
        let read = try PythonReader.run(["parquet", folder.file("empty.parquet")])
        #expect((read["schema"] as? [[String]])?.map { $0[0] } == Self.columns.map(\.name))
        #expect((read["row_groups"] as? [Int]) == [])
        #expect((read["rows"] as? [Any])?.isEmpty == true)
        #expect((read["fastparquet_rows"] as? [Any])?.isEmpty == true)
        #expect((read["duckdb_rows"] as? [Any])?.isEmpty == true)
    }

    @Test func rowGroupsAreBoundedByBytesToo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = try ParquetWriter(handle: try LocalFolderSink(folder: folder.path).create("images.parquet"),
                                       columns: [.init(name: "key", kind: .string), .init(name: "jpg", kind: .binary)],
                                       maxRowsPerGroup: 100, maxBytesPerGroup: 200_000)
        let photo = SampleData.photo(3)  // ~140 kB: one row group per photo beyond the first
        for i in 0..<5 { try writer.append([.string("\(i)"), .binary(photo)]) }
        try writer.close()
        let read = try PythonReader.run(["parquet", folder.file("images.parquet")])
        #expect(read["row_groups"] as? [Int] == [2, 2, 1])
        #expect(Canonical.text((read["rows"] as? [[Any]])?.map { $0[1] }) == Canonical.text(Array(repeating: Canonical.binary(photo), count: 5)))
    }

    @Test func aRowOfTheWrongShapeIsRefusedAndTheFileStaysValid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = try ParquetWriter(handle: try LocalFolderSink(folder: folder.path).create("m.parquet"), columns: Self.columns)
        try writer.append(Self.row(1))
        #expect(throws: DatasetFormatError.schemaMismatch(file: "m.parquet", reason: "column 'i' is int32, not int64(4)")) {
            try writer.append([.null, .int64(4), .null, .null, .null, .null])
        }
        #expect(throws: DatasetFormatError.self) { try writer.append([.null]) }
        try writer.append(Self.row(2))
        try writer.close()
        let read = try PythonReader.run(["parquet", folder.file("m.parquet")])
        #expect(Canonical.text(read["duckdb_rows"]) == Canonical.text([Self.row(1), Self.row(2)].map { $0.map(Self.expected) }))
        #expect(throws: DatasetFormatError.invalidSchema("x.parquet: column name 'a' is empty or repeated")) {
            _ = try ParquetWriter(handle: try LocalFolderSink(folder: folder.path).create("x.parquet"),
                                  columns: [.init(name: "a", kind: .int32), .init(name: "a", kind: .string)])
        }
    }

    @Test func hundredThousandMetadataRows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        let writer = try DatasetShardWriter(sink: sink, shardName: "00000", format: .webdataset, schema: SampleData.schema,
                                            imageExtension: "jpg", writesCaptions: true)
        for i in 0..<100_000 {
            var sample = SampleData.sample(i)
            sample.image = nil  // every row a failure: the metadata file alone
            sample.metadata[3] = .string(String(format: "%09d", i))
            try writer.write(sample)
        }
        try writer.finish(stats: ShardStats(count: 100_000, successes: 0, failedToDownload: 100_000, failedToResize: 0,
                                            startTime: 1_764_255_600.5, endTime: 1_764_255_700.25, statusDict: [:]))
        let read = try PythonReader.run(["parquet-count", folder.file("00000.parquet")])
        #expect(read["pyarrow"] as? Int == 100_000)
        #expect(read["fastparquet"] as? Int == 100_000)
        #expect(read["duckdb"] as? Int == 100_000)
        #expect(read["distinct_keys"] as? Int == 100_000)
        #expect(read["row_groups"] as? Int == 1_000)
        #expect(read["largest_row_group"] as? Int == 100)
        var last = SampleData.sample(99_999).metadata
        last[3] = .string("000099999")
        #expect(Canonical.text(read["last"]) == Canonical.text(last.map(SampleData.jsonValue)))
        #expect(Canonical.text(read["fastparquet_last"]) == Canonical.text(last.map(SampleData.jsonValue)))
    }
}
