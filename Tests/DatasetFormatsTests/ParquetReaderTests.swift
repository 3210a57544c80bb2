import Foundation
import Testing
@testable import DatasetFormats

/// The Parquet reader against files pyarrow and DuckDB write (every codec, page versions 1 and 2,
/// dictionary and plain, nulls, many row groups, list and list-of-list columns, a struct refused), and against broken files:
/// each a ParquetReadError naming the file and what is wrong, never a trap or a silent short read.
@Suite("Parquet reader: pyarrow's and DuckDB's files")
struct ParquetReaderTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Readers/parquet_inputs.py").path

    /// Writes the files with parquet_inputs.py and returns what pyarrow reads from each.
    static func makeInputs(in folder: String) throws -> [String: [String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, folder]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "parquet_inputs.py failed (pyarrow and duckdb: Scripts/bootstrap installs them)")
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
    }

    /// Whether our value is the one parquet_inputs.py printed for pyarrow's (floats as repr(), bytes as hex).
    static func same(_ ours: ParquetReadValue, _ theirs: Any, isString: Bool) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b): return !(theirs is String) && (theirs as? Bool) == b
        case .int32(let n): return !(theirs is String) && (theirs as? NSNumber)?.int64Value == Int64(n)
        case .int64(let n): return !(theirs is String) && (theirs as? NSNumber)?.int64Value == n
        case .float(let x): return (theirs as? String).flatMap(Double.init) == Double(x)
        case .double(let x): return (theirs as? String).flatMap(Double.init) == x
        case .bytes(let b):
            let text = isString ? String(decoding: b, as: UTF8.self) : b.map { String(format: "%02x", $0) }.joined()
            return (theirs as? String) == text
        case .list(let items):
            guard let list = theirs as? [Any], list.count == items.count else { return false }
            return zip(items, list).allSatisfy { same($0, $1, isString: isString) }
        }
    }

    @Test func everyEncodingCodecAndPageVersionReadsAsPyarrowReadsIt() throws {
        let folder = NSTemporaryDirectory() + "parquet-in-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let expected = try Self.makeInputs(in: folder)
        #expect(expected.count == 19, "16 pyarrow variants, required, empty and DuckDB's")
        var compared = 0
        for (name, info) in expected.sorted(by: { $0.key < $1.key }) {
            let reader = try ParquetFileReader(path: folder + "/" + name)
            #expect(reader.rowGroupRowCounts == (info["row_groups"] as? [Int]), "\(name): row groups")
            let columns = try #require(info["columns"] as? [String: [Any]])
            let names = columns.keys.sorted()
            var got = Array(repeating: [ParquetReadValue](), count: names.count)
            for group in reader.rowGroupRowCounts.indices {
                for (i, values) in try reader.readRowGroup(group, columns: names).enumerated() { got[i] += values }
            }
            for (i, column) in names.enumerated() {
                let want = columns[column]!
                let info = try #require(reader.columns.first { $0.name == column })
                #expect(got[i].count == want.count, "\(name) \(column): \(got[i].count) values, pyarrow \(want.count)")
                for (row, (ours, theirs)) in zip(got[i], want).enumerated() {
                    if !Self.same(ours, theirs, isString: info.isString) {
                        Issue.record("\(name) \(column) row \(row): ours \(ours), pyarrow \(theirs)")
                        break
                    }
                }
                compared += 1
            }
            if name.hasPrefix("pyarrow-") && name != "pyarrow-required.parquet" {
                #expect(reader.columns.first { $0.name == "face_bboxes" }?.isReadable == true, "\(name): list<list<double>> is readable")
                #expect(reader.columns.first { $0.name == "meta" }?.isReadable == false, "\(name): the struct is listed, not readable")
                #expect(throws: ParquetReadError(path: folder + "/" + name,
                                                 reason: "column 'meta' is a group (a struct or map), which this reader does not read")) {
                    try reader.readRowGroup(0, columns: ["meta"])
                }
            }
        }
        #expect(compared >= 16 * 12, "columns compared (embedding and face_bboxes lists included): \(compared)")
    }

    @Test func aMissingColumnNamesTheColumnsThatExist() throws {
        let folder = NSTemporaryDirectory() + "parquet-in-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.makeInputs(in: folder)
        let reader = try ParquetFileReader(path: folder + "/duckdb.parquet")
        #expect(throws: ParquetReadError(path: folder + "/duckdb.parquet", reason: "no column 'URL' (the file has: url, caption, n, score)")) {
            try reader.readRowGroup(0, columns: ["URL"])
        }
    }

    @Test func brokenFilesAreClearErrors() throws {
        let folder = NSTemporaryDirectory() + "parquet-in-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.makeInputs(in: folder)
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/pyarrow-none-v1-dict.parquet")))
        func attempt(_ bytes: [UInt8]) throws(ParquetReadError) -> Int {
            let path = folder + "/broken.parquet"
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            let reader = try ParquetFileReader(path: path)
            var rows = 0
            for g in reader.rowGroupRowCounts.indices { rows += try reader.readRowGroup(g, columns: ["url", "caption", "width", "license"])[0].count }
            return rows
        }
        #expect(try attempt(good) == 1000)
        // Cut: the magic is gone.
        #expect(throws: ParquetReadError.self) { try attempt(Array(good.dropLast(100))) }
        do { _ = try attempt(Array(good.dropLast(100))); Issue.record("a cut file was read") }
        catch { #expect(error.reason.contains("no PAR1 magic")) }
        // A footer length larger than the file.
        var lying = good
        lying[lying.count - 5] = 0x7F
        do { _ = try attempt(lying); Issue.record("a lying footer length was read") }
        catch { #expect(error.reason.contains("does not fit"), "\(error)") }
        // Not Parquet at all.
        do { _ = try attempt(Array("url\nhttps://example.com/a.jpg\n".utf8)); Issue.record("a CSV was read") }
        catch { #expect(error.reason.contains("not a Parquet file")) }
        // Every byte of the data pages flipped in turn (a sample): a value, or an error; never a trap.
        var outcomes = (read: 0, refused: 0)
        for position in stride(from: 4, to: good.count - 8, by: max(1, good.count / 1500)) {
            var bent = good
            bent[position] ^= 0xA5
            do { _ = try attempt(bent); outcomes.read += 1 } catch { outcomes.refused += 1; #expect(!error.reason.isEmpty) }
        }
        #expect(outcomes.refused > 0, "corruption never noticed: \(outcomes)")
    }

    @Test func aDictionaryIndexOutOfRangeIsNamed() throws {
        // A dictionary page of 2 strings, then a data page whose indices (bit width 2) include 3.
        var dictionary: [UInt8] = []
        for s in ["cc0", "cc-by"] { dictionary += withUnsafeBytes(of: UInt32(s.utf8.count).littleEndian, Array.init) + Array(s.utf8) }
        // Bit width 2, then one bit-packed group of 8 indices: 0, 1, 2, 3, 0, 0, 0, 0.
        let packed: [UInt8] = [2, 0x03, 0b11_10_01_00, 0]
        func page(kind: Int32, values: Int32, encoding: Int32, body: [UInt8]) -> [UInt8] {
            var w = ThriftCompactWriter()
            w.structBody { h in
                h.field(1, i32: kind)
                h.field(2, i32: Int32(body.count))
                h.field(3, i32: Int32(body.count))
                h.field(kind == 2 ? 7 : 5, struct: { s in
                    s.field(1, i32: values)
                    s.field(2, i32: encoding)
                    if kind == 0 { s.field(3, i32: 3); s.field(4, i32: 3) }
                })
            }
            return w.bytes + body
        }
        let chunk = page(kind: 2, values: 2, encoding: 0, body: dictionary) + page(kind: 0, values: 4, encoding: 8, body: packed)
        let reader = ParquetColumnChunkReader(type: .byteArray, typeLength: 0, optional: false, codec: 0)
        do {
            _ = try chunk.withParquetBytes { (raw) throws(ParquetFormatProblem) in try reader.read(raw, rows: 4) }
            Issue.record("an index past the dictionary was read")
        } catch {
            #expect(error.reason == "dictionary index 2 out of range (the dictionary has 2 entries)")
        }
    }
}

/// Files the `parquet` fuzz target found (Fuzz/parquet.swift): each is a clear error, never a trap.
@Suite("Parquet reader: fuzz regressions")
struct ParquetReaderFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/parquet-fuzz-regressions").path

    @Test func aFooterClaimingTrillionsOfRowsIsRefusedNotAllocated() throws {
        // A footer whose row count was bent to ~2^38: the reader reserved that many values and died.
        let path = Self.folder + "/row-count-lie.parquet"
        let reader = try ParquetFileReader(path: path)
        var errors: [String] = []
        for group in reader.rowGroupRowCounts.indices {
            for column in reader.columns where column.isReadable {
                do { _ = try reader.readRowGroup(group, columns: [column.name]) } catch { errors.append(error.reason) }
            }
        }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { !$0.isEmpty })
    }
}
