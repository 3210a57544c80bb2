import Foundation
import GalleryTestSupport
import Testing

/// `--input-format parquet`: a LAION-style list (URL, caption, extra columns, an embedding list column, many
/// row groups, every codec pyarrow writes) makes the same dataset as the CSV of the same rows.
@Suite struct DatasetParquetInputTests {
    /// Writes the fixture's rows as Parquet with pyarrow: `row_group_size` rows a group, `codec`, page version.
    static func writeParquet(_ fixture: DatasetFixture, jsonl: String, name: String, codec: String, version: String) async throws -> String {
        let path = fixture.work.file(name)
        let script = """
            import sys, pyarrow as pa, pyarrow.json as pj, pyarrow.parquet as pq
            t = pj.read_json(sys.argv[1])
            t = t.append_column("embedding", pa.array([[float(i)] * 16 for i in range(t.num_rows)], pa.list_(pa.float32())))
            pq.write_table(t, sys.argv[2], row_group_size=7, compression=sys.argv[3], data_page_version=sys.argv[4])
            """
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, jsonl, path, codec, version]), timeout: 60)
        try #require(r.exitCode == 0, "pyarrow could not write the list: \(r.stderrText)")
        return path
    }

    @Test func aParquetListMakesTheSameDatasetAsItsCSV() async throws {
        let fixture = try DatasetFixture(count: 60)
        let csv = try fixture.writeCSV()
        let jsonl = try fixture.writeJSONL()
        var seen: [String: [String]] = [:]
        var inputs = [(csv, "csv")]
        for (codec, version) in [("snappy", "1.0"), ("zstd", "2.0"), ("gzip", "1.0")] {
            inputs.append((try await Self.writeParquet(fixture, jsonl: jsonl, name: "list-\(codec).parquet", codec: codec, version: version), "parquet"))
        }
        for (path, format) in inputs {
            let out = fixture.work.file("out-\(URL(fileURLWithPath: path).lastPathComponent)")
            let r = try await DatasetCLI.run(["--url-list", path, "--input-format", format, "--output-folder", out, "--quiet",
                                              "--output-format", "files"] + DatasetFixture.options)
            #expect(r.exitCode == 0, "\(path): \(r.stderrText)")
            let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
            #expect(rows.count == 60, "\(path)")
            seen[path] = rows.keys.sorted().map { key in
                let row = rows[key] ?? [:]
                return "\(key) \(row["status"] ?? "") \(row["url"] ?? "") \(row["caption"] ?? "") \(row["n"] ?? "") \(row["tag"] ?? "")"
            }
        }
        for (path, lines) in seen where path != csv { #expect(lines == seen[csv], "\(path) differs from the CSV's dataset") }
    }

    @Test func aBrokenParquetListNamesTheFile() async throws {
        let fixture = try DatasetFixture(count: 2)
        let bad = try fixture.work.write(Array("url\nhttp://x/a.jpg\n".utf8), to: "list.parquet")
        let r = try await DatasetCLI.run(["--url-list", bad, "--input-format", "parquet", "--output-folder", fixture.work.file("out")])
        #expect(r.exitCode != 0 && r.stderrText.contains("list.parquet") && r.stderrText.contains("not a Parquet file"), "\(r.stderrText)")
        let gz = try await DatasetCLI.run(["--url-list", bad, "--input-format", "parquet.gz", "--output-folder", fixture.work.file("out")])
        #expect(gz.exitCode == 2, "\(gz.stderrText)")
        // A list compressed with a codec the reader does not read (Brotli) names the file and the codec.
        let brotli = fixture.work.file("brotli.parquet")
        let write = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", """
            import sys, pyarrow as pa, pyarrow.parquet as pq
            pq.write_table(pa.table({"url": ["http://127.0.0.1:9/a.jpg"] * 10}), sys.argv[1], compression="brotli")
            """, brotli]), timeout: 60)
        try #require(write.exitCode == 0, "\(write.stderrText)")
        let refused = try await DatasetCLI.run(["--url-list", brotli, "--input-format", "parquet", "--output-folder", fixture.work.file("out-brotli")])
        #expect(refused.exitCode == 3 && refused.stderrText.contains("brotli.parquet") && refused.stderrText.contains("BROTLI"), "\(refused.exitCode): \(refused.stderrText)")
    }
}
