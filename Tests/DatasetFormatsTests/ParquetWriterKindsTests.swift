import Foundation
import Testing
@testable import DatasetFormats

/// The Parquet reader against the other writers URL lists come from (Readers/parquet_writers.py): pyarrow's
/// dictionary pages overflowing into PLAIN pages in the middle of a chunk, Spark's own writer (parquet-mr:
/// committed files in Fixtures/parquet-spark, made by that script's `spark` command), and the codecs and
/// encodings the reader does not read, each refused with an error naming the file, the column and the codec
/// or encoding. The page encodings are read from the page headers by the script, so each file is seen to
/// hold what it is meant to (the fallback happened; the refused encoding is really there).
@Suite("Parquet reader: dictionary fallback, Spark's files, refused codecs and encodings")
struct ParquetWriterKindsTests {
    static let readers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Readers")
    static let script = readers.appendingPathComponent("parquet_writers.py").path
    static let spark = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/parquet-spark").path

    static func python(_ arguments: [String]) throws -> [String: [String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "parquet_writers.py \(arguments.first ?? "") failed (pyarrow: Scripts/bootstrap installs it)")
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
    }

    /// Reads every column pyarrow read from `path` and compares each value; returns the values compared.
    static func compare(_ path: String, with info: [String: Any]) throws -> Int {
        let reader = try ParquetFileReader(path: path)
        #expect(reader.rowGroupRowCounts == (info["row_groups"] as? [Int]), "\(path): row groups")
        let columns = try #require(info["columns"] as? [String: [Any]])
        var compared = 0
        for (name, want) in columns.sorted(by: { $0.key < $1.key }) {
            var got: [ParquetReadValue] = []
            for group in reader.rowGroupRowCounts.indices { got += try reader.readRowGroup(group, columns: [name])[0] }
            let isString = try #require(reader.columns.first { $0.name == name }).isString
            #expect(got.count == want.count, "\(path) \(name): \(got.count) values, pyarrow \(want.count)")
            for (row, (ours, theirs)) in zip(got, want).enumerated() where !ParquetReaderTests.same(ours, theirs, isString: isString) {
                Issue.record("\(path) \(name) row \(row): ours \(ours), pyarrow \(theirs)")
                break
            }
            compared += min(got.count, want.count)
        }
        return compared
    }

    @Test func pyarrowsDictionaryFallingBackToPlainMidChunkReadsAsPyarrowReadsIt() throws {
        let folder = NSTemporaryDirectory() + "parquet-writers-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = try Self.python(["pyarrow", folder])
        let name = "pyarrow-dictionary-fallback.parquet"
        let pages = try #require(written[name]?["pages"] as? [String: [String]])
        for column in ["URL", "TEXT", "similarity"] {
            let kinds = pages[column] ?? []
            // One chunk: its dictionary page, dictionary-encoded pages, then PLAIN pages once the dictionary outgrew 4 KiB.
            #expect(kinds.first == "dictionary:PLAIN" && kinds.contains("data:RLE_DICTIONARY") && kinds.last == "data:PLAIN",
                    "\(column): \(kinds)")
        }
        let path = folder + "/" + name
        let info = try #require(try Self.python(["read", path])[name])
        #expect(try Self.compare(path, with: info) == 4 * 30000)
    }

    @Test func sparksFilesReadAsPyarrowReadsThem() throws {
        let names = ["spark-default.parquet", "spark-fallback.parquet"]
        let expected = try Self.python(["read"] + names.map { Self.spark + "/" + $0 })
        let fallback = expected["spark-fallback.parquet"]?["pages"] as? [String: [String]] ?? [:]
        #expect(fallback["LICENSE"].map { $0.first == "dictionary:PLAIN_DICTIONARY" && $0.contains("data:PLAIN_DICTIONARY") && $0.last == "data:PLAIN" } == true,
                "parquet-mr's fallback in the LICENSE chunk: \(fallback["LICENSE"] ?? [])")
        for name in names {
            let info = try #require(expected[name])
            // Eleven columns of 3,000 rows, the embedding list (Spark's three-level list of floats) among them.
            #expect(try Self.compare(Self.spark + "/" + name, with: info) == 11 * 3000, "\(name)")
        }
    }

    /// (file, column, what the error must name)
    static let refused: [(file: String, column: String, named: String)] = [
        ("lz4-hadoop.parquet", "URL", "LZ4"), ("brotli.parquet", "URL", "BROTLI"),
        ("delta-binary-packed.parquet", "WIDTH", "DELTA_BINARY_PACKED"),
        ("delta-length-byte-array.parquet", "URL", "DELTA_LENGTH_BYTE_ARRAY"),
        ("delta-byte-array.parquet", "URL", "DELTA_BYTE_ARRAY"),
        ("byte-stream-split.parquet", "punsafe", "BYTE_STREAM_SPLIT"),
    ]

    @Test func refusedCodecsAndEncodingsNameTheFileColumnAndWhat() throws {
        let folder = NSTemporaryDirectory() + "parquet-writers-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let written = try Self.python(["pyarrow", folder])
        for r in Self.refused {
            let path = folder + "/" + r.file
            let pages = (written[r.file]?["pages"] as? [String: [String]])?[r.column] ?? []
            let codec = written[r.file]?["codec"] as? String ?? ""
            #expect(pages.contains { $0.hasSuffix(":" + r.named) } || codec == r.named, "\(r.file) does not hold \(r.named): \(pages) \(codec)")
            let reader = try ParquetFileReader(path: path)
            do {
                _ = try reader.readRowGroup(0, columns: [r.column])
                Issue.record("\(r.file): \(r.column) was read")
            } catch {
                #expect(error.path == path, "\(error)")
                #expect(error.reason.contains("column '\(r.column)'") && error.reason.contains(r.named) && error.reason.contains("does not read"),
                        "\(r.file): \(error.reason)")
                #expect("\(error)".hasPrefix(path + ": "))
            }
        }
        // Spark's v2 writer (parquet.writer.version=v2) encodes its strings and ints with DELTA_*: refused,
        // naming the encoding, while its PLAIN doubles read.
        let v2 = Self.spark + "/spark-v2-pages.parquet"
        let reader = try ParquetFileReader(path: v2)
        #expect(throws: ParquetReadError(path: v2, reason: "row group 0, column 'URL': values encoded as DELTA_BYTE_ARRAY, which this reader does not read")) {
            try reader.readRowGroup(0, columns: ["URL"])
        }
        #expect(throws: ParquetReadError(path: v2, reason: "row group 0, column 'HEIGHT': values encoded as DELTA_BINARY_PACKED, which this reader does not read")) {
            try reader.readRowGroup(0, columns: ["HEIGHT"])
        }
        let info = try #require(try Self.python(["read", v2])["spark-v2-pages.parquet"])
        let similarity = try reader.readRowGroup(0, columns: ["similarity"])[0]
        let want = try #require((info["columns"] as? [String: [Any]])?["similarity"])
        #expect(similarity.count == 3000 && zip(similarity, want).allSatisfy { ParquetReaderTests.same($0, $1, isString: false) })
    }
}
