@testable import DatasetFormats
import Foundation
import Testing

/// The same rows through img2dataset 1.47's own sample writers (its writer.py, as its downloader calls
/// them) and through DatasetShardWriter: the same files byte for byte, the same tar members, the same
/// Parquet types and values. (Its TFRecordSampleWriter needs TensorFlow, which the tests do not install.)
@Suite struct Img2datasetWriterTests {
    static let count = 14

    /// Writes the shard both ways into two folders; returns them.
    static func bothWays(_ format: DatasetOutputFormat, captions: Bool) throws -> (ours: TemporaryFolder, theirs: TemporaryFolder) {
        let ours = try TemporaryFolder("ours"), theirs = try TemporaryFolder("theirs")
        let samples = (0..<count).map { SampleData.sample($0) }
        let writer = try DatasetShardWriter(sink: try LocalFolderSink(folder: ours.path), shardName: "00000", format: format,
                                            schema: SampleData.schema, imageExtension: "jpg", writesCaptions: captions)
        for sample in samples { try writer.write(sample) }
        try writer.finish(stats: DatasetShardWriterTests.stats)

        let schema = SampleData.schema.map { [$0.name, $0.type == .int32 ? "int32" : "string"] }
        let rows: [[String: Any]] = samples.map { sample in
            ["key": sample.key, "caption": sample.caption ?? NSNull(), "meta": SampleData.pairs(sample.metadata),
             "image_hex": sample.image.map { $0.map { String(format: "%02x", $0) }.joined() } ?? NSNull()]
        }
        let spec: [String: Any] = ["schema": schema, "encode_format": "jpg", "save_caption": captions, "samples": rows]
        let specFile = theirs.path + ".spec.json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: specFile))
        defer { try? FileManager.default.removeItem(atPath: specFile) }
        _ = try PythonReader.run(["img2dataset-shard", format.rawValue, theirs.path, specFile])
        return (ours, theirs)
    }

    @Test(arguments: [true, false])
    func filesFolderIsByteIdentical(captions: Bool) throws {
        let (ours, theirs) = try Self.bothWays(.files, captions: captions)
        defer { ours.remove(); theirs.remove() }
        let names = try FileManager.default.contentsOfDirectory(atPath: theirs.file("00000")).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: ours.file("00000")).sorted() == names)
        #expect(names.count == (captions ? 30 : 20))
        for name in names {
            let a = try Data(contentsOf: URL(fileURLWithPath: ours.file("00000/\(name)")))
            let b = try Data(contentsOf: URL(fileURLWithPath: theirs.file("00000/\(name)")))
            #expect(a == b, "00000/\(name) differs")
        }
        try Self.sameParquet(ours.file("00000.parquet"), theirs.file("00000.parquet"))
    }

    @Test(arguments: [true, false])
    func webdatasetTarHasTheSameMembers(captions: Bool) throws {
        let (ours, theirs) = try Self.bothWays(.webdataset, captions: captions)
        defer { ours.remove(); theirs.remove() }
        let a = try PythonReader.run(["tar-members", ours.file("00000.tar")])
        let b = try PythonReader.run(["tar-members", theirs.file("00000.tar")])
        #expect((b["members"] as? [Any])?.count == (captions ? 30 : 20))
        #expect(Canonical.text(a["members"]) == Canonical.text(b["members"]))
        try Self.sameParquet(ours.file("00000.parquet"), theirs.file("00000.parquet"))
    }

    @Test func parquetFormatHasTheSameColumnsAndValues() throws {
        let (ours, theirs) = try Self.bothWays(.parquet, captions: true)
        defer { ours.remove(); theirs.remove() }
        try Self.sameParquet(ours.file("00000.parquet"), theirs.file("00000.parquet"))
    }

    static func sameParquet(_ ours: String, _ theirs: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let a = try PythonReader.run(["parquet", ours]), b = try PythonReader.run(["parquet", theirs])
        for field in ["schema", "logical_types", "duckdb_schema", "row_groups", "rows", "fastparquet_rows", "duckdb_rows"] {
            #expect(Canonical.text(a[field]) == Canonical.text(b[field]), "\(field)", sourceLocation: sourceLocation)
        }
        #expect((a["rows"] as? [Any])?.count == count, sourceLocation: sourceLocation)
    }
}
