import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery dataset` end to end on loopback: a few hundred URLs with captions and extra columns, some
/// failing for each known reason, read back with pyarrow and webdataset.
@Suite struct DatasetCommandTests {
    @Test func everyRowOnceWithImg2datasetsStatusesMessagesAndColumns() async throws {
        let fixture = try DatasetFixture(count: 300)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--output-format", "webdataset",
                                          "--output-folder", out, "--progress", "plain"] + DatasetFixture.options)
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let data = try await DatasetCLI.read(out)
        let rows = DatasetCLI.rows(data)
        #expect(rows.count == 300)
        for (i, expected) in fixture.rows.enumerated() {
            let key = String(format: "%05d%02d", i / 100, i % 100)  // 100 rows a shard: 5 + 2 digits
            guard let row = rows[key] else { Issue.record("no row \(key)"); continue }
            #expect(row["url"] as? String == expected.url)
            #expect(row["caption"] as? String == expected.caption)
            #expect(row["n"] as? Int == expected.n && row["tag"] as? String == expected.tag)
            #expect(row["status"] as? String == expected.status, "\(key) \(expected.url): \(row["error_message"] ?? "")")
            #expect(row["error_message"] as? String == expected.error, "\(key) \(expected.url)")
            if expected.status == "success" {
                #expect((row["sha256"] as? String)?.count == 64 && row["exif"] is String)
                #expect(row["width"] as? Int == 256 && row["height"] as? Int == 256 && (row["original_width"] as? Int ?? 0) > 0)
            } else {
                #expect(row["sha256"] is NSNull && row["width"] is NSNull)
            }
        }
        let shard = (data["parquet"] as? [String: [String: Any]])?["00000"]
        let schema = (shard?["schema"] as? [[String]])?.map { "\($0[0]):\($0[1])" }
        #expect(schema == ["n:int64", "tag:string", "caption:string", "url:string", "key:string", "status:string",
                           "error_message:string", "width:int32", "height:int32", "original_width:int32",
                           "original_height:int32", "exif:string", "sha256:string"])
        // Tars: successes only, jpg/json/txt per key in that order, read back whole by webdataset.
        let tars = data["tars"] as? [String: [String]] ?? [:]
        #expect(tars.keys.sorted() == ["00000", "00001", "00002"])
        let successes = fixture.rows.filter { $0.status == "success" }.count
        #expect(tars.values.map(\.count).reduce(0, +) == 3 * successes)
        for members in tars.values {
            for i in stride(from: 0, to: members.count, by: 3) {
                let key = members[i].prefix(7)
                #expect(members[i..<(i + 3)].map { String($0.dropFirst(7)) }.sorted() == [".jpg", ".json", ".txt"], "\(members[i..<(i + 3)])")
                #expect(members[i..<(i + 3)].allSatisfy { $0.hasPrefix(key) })
            }
        }
        let wds = data["wds"] as? [[Any]] ?? []
        #expect(wds.count == successes)
        #expect(wds.allSatisfy { ($0[1] as? Bool) == true && ($0[0] as? String) == ($0[3] as? String) })
        let stats = data["stats"] as? [String: [String: Any]] ?? [:]
        #expect(stats["00000"]?["count"] as? Int == 100)
        #expect(stats.values.map { $0["successes"] as? Int ?? 0 }.reduce(0, +) == successes)
        #expect((stats["00000"]?["status_dict"] as? [String: Int])?["HTTP Error 404: Not Found"] == 5)
    }

    @Test func eachInputFormatAndItsGzipMakeTheSameDataset() async throws {
        let fixture = try DatasetFixture(count: 40)
        let csv = try fixture.writeCSV()
        let tsv = try fixture.writeCSV("list.tsv", separator: "\t")
        let jsonl = try fixture.writeJSONL()
        let txt = try fixture.work.write(Array(fixture.rows.map(\.url).joined(separator: "\n").utf8), to: "list.txt")
        let json = try fixture.work.write(Array(("[" + (try String(contentsOfFile: jsonl, encoding: .utf8))
            .split(separator: "\n").joined(separator: ",\n") + "]").utf8), to: "list.json")
        _ = await DownloadCLI.wait(try ProcessRunner("gzip", ["-k", tsv, json, txt]), timeout: 30)
        var seen: [String: [String]] = [:]
        for (path, format) in [(csv, "csv"), (tsv + ".gz", "tsv.gz"), (jsonl, "jsonl"), (json + ".gz", "json.gz"), (txt + ".gz", "txt.gz")] {
            let out = fixture.work.file("out-\(format)")
            let extra = format.hasPrefix("txt") ? ["--min-image-size", "16", "--max-aspect-ratio", "5", "--number-sample-per-shard", "100"] : DatasetFixture.options
            let r = try await DatasetCLI.run(["--url-list", path, "--input-format", format, "--output-folder", out, "--quiet",
                                              "--output-format", "files"] + extra)
            #expect(r.exitCode == 0, "\(format): \(r.stderrText)")
            let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
            seen[format] = rows.keys.sorted().map { "\($0) \(rows[$0]?["status"] ?? "") \(rows[$0]?["url"] ?? "")" }
            #expect(rows.count == 40, "\(format)")
            if !format.hasPrefix("txt") { #expect(rows["0000012"]?["caption"] as? String == fixture.rows[12].caption, "\(format)") }
        }
        for (format, lines) in seen { #expect(lines == seen["csv"], "\(format) differs from csv") }
    }

    @Test func badInputFailsClearlyAndBadRowsFailAlone() async throws {
        let fixture = try DatasetFixture(count: 4)
        let out = fixture.work.file("out")
        // A missing column: usage error naming the columns the file has.
        let csv = try fixture.writeCSV()
        let missing = try await DatasetCLI.run(["--url-list", csv, "--input-format", "csv", "--caption-col", "title", "--output-folder", out])
        #expect(missing.exitCode == 2 && missing.stderrText.contains("no column 'title'; its columns are: url, text, n, tag"), "\(missing.stderrText)")
        let nofile = try await DatasetCLI.run(["--url-list", fixture.work.file("nope.csv"), "--input-format", "csv", "--output-folder", out])
        #expect(nofile.exitCode == 3 && nofile.stderrText.contains("nope.csv"), "\(nofile.stderrText)")
        let reserved = try await DatasetCLI.run(["--url-list", csv, "--input-format", "csv", "--save-additional-columns", "status", "--output-folder", out])
        #expect(reserved.exitCode == 2 && reserved.stderrText.contains("status"))
        // Malformed lines and odd URLs fail their own rows; the others are fetched.
        let text = "url,text\n\(fixture.rows[0].url),ok\n\"broken,x\nftp://h/x.jpg,ftp\nnot a url,none\n\(fixture.rows[1].url),\"a\"b\n\(fixture.rows[2].url),fine\n"
        let bad = try fixture.work.write(Array(text.utf8), to: "bad.csv")
        let r = try await DatasetCLI.run(["--url-list", bad, "--input-format", "csv", "--caption-col", "text", "--output-folder", out, "--quiet"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
        let messages = rows.keys.sorted().map { "\(rows[$0]?["status"] ?? "") \(rows[$0]?["error_message"] ?? "")" }
        #expect(messages == ["success <null>", "failed_to_download malformed CSV line 3: a quoted field is not closed on its line",
                             "failed_to_download <urlopen error unknown url type: ftp>", "failed_to_download unknown url type: 'not a url'",
                             "failed_to_download malformed CSV line 6: text after a closing quote", "success <null>"], "\(messages)")
    }

    /// `--verify-hash COL,ALGO`: a download whose hash differs fails with img2dataset's "hash mismatch"; the
    /// column keeps its place (named after the algorithm) and holds the computed hash of the successes.
    @Test func verifyHashFailsTheRowsWhoseBytesDiffer() async throws {
        let fixture = try DatasetFixture(count: 3)
        let md5 = try await DatasetCLI.md5(try Corpus.bytes(DatasetFixture.photoNames[0]), in: fixture.work)
        let text = "url,h\n\(fixture.server.url("/p/0.img")),\(md5)\n\(fixture.server.url("/p/0.img")),0123\n"
        let list = try fixture.work.write(Array(text.utf8), to: "v.csv")
        let out = fixture.work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--verify-hash", "h,md5",
                                          "--compute-hash", "md5", "--output-folder", out, "--quiet"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let data = try await DatasetCLI.read(out)
        let rows = DatasetCLI.rows(data)
        #expect(rows["000000000"]?["status"] as? String == "success" && rows["000000000"]?["md5"] as? String == md5)
        #expect(rows["000000001"]?["status"] as? String == "failed_to_download" && rows["000000001"]?["error_message"] as? String == "hash mismatch")
        let schema = ((data["parquet"] as? [String: [String: Any]])?["00000"]?["schema"] as? [[String]])?.map { $0[0] }
        #expect(schema?.prefix(3) == ["md5", "url", "key"] && schema?.filter { $0 == "md5" }.count == 1)
        let mismatch = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--verify-hash", "h,md5", "--output-folder", out])
        #expect(mismatch.exitCode == 2 && mismatch.stderrText.contains("verify_hash and compute_hash must be the same"))
    }
}
