import Foundation
import GalleryTestSupport
import Testing

/// Subsets of a finished dataset (`--uid-list`, `--where`), and the errors of a reshape: a bad condition, a
/// truncated or foreign shard, a Parquet shard without images, each an error naming what is wrong while the
/// shards already written stay.
@Suite(.serialized) struct DatasetReshapeSubsetTests {
    /// DataComp-style uids (32 hex digits, both halves used) for the fixture's rows, and an old webdataset made
    /// from them by this tool: columns uid, n, tag, caption.
    static func oldDataset(_ fixture: DatasetFixture, perShard: Int = 20) async throws -> String {
        func quote(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var text = "url,text,n,tag,uid\n"
        for r in fixture.rows { text += [r.url, quote(r.caption), String(r.n), r.tag, uid(r.n)].joined(separator: ",") + "\n" }
        let list = try fixture.work.write(Array(text.utf8), to: "uids.csv")
        let old = fixture.work.file("old")
        let r = try await DatasetCLI.run(["--url-list", list, "--input-format", "csv", "--caption-col", "text",
                                          "--save-additional-columns", "n,tag,uid", "--min-image-size", "16", "--max-aspect-ratio", "5",
                                          "--number-sample-per-shard", String(perShard), "--output-format", "webdataset",
                                          "--resize-mode", "keep_ratio", "--image-size", "128", "--output-folder", old, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        return old
    }

    static func uid(_ n: Int) -> String {
        let high = UInt64(n) &* 0x9E37_79B9_7F4A_7C15, low = UInt64(n) &* 0xC2B2_AE3D_27D4_EB4F &+ 1
        return String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
    }

    @Test func aUIDListWrittenByNumpyKeepsExactlyItsSamples() async throws {
        let fixture = try DatasetFixture(count: 60)
        let old = try await Self.oldDataset(fixture)
        fixture.server.stop()
        let before = try await ReshapeRead.read(old, format: "webdataset")
        let wanted = before.keys.filter { ((before.meta($0)["n"] as? Int) ?? 0) % 3 == 0 }
        // Also uids that are in no sample, as a real subset file has.
        let uids = wanted.compactMap { before.meta($0)["uid"] as? String } + [Self.uid(1000), Self.uid(1001)]
        let npy = fixture.work.file("subset.npy")
        let script = """
            import sys, numpy as np
            u = np.array([(int(x[:16], 16), int(x[16:32], 16)) for x in sys.argv[2:]], np.dtype("u8,u8"))
            u.sort()
            np.save(sys.argv[1], u)
            """
        let w = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, npy] + uids), timeout: 60)
        try #require(w.exitCode == 0, "\(w.stderrText)")
        let new = fixture.work.file("new")
        let r = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "no",
                                          "--uid-list", npy, "--output-format", "webdataset", "--output-folder", new, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let after = try await ReshapeRead.read(new, format: "webdataset")
        #expect(!wanted.isEmpty && after.keys.sorted() == wanted.sorted(), "kept \(after.keys.sorted()), wanted \(wanted.sorted())")
        for key in wanted { #expect(after.string(key, "md5") == before.string(key, "md5")) }
        // A file that is not a u8,u8 array is refused, naming it.
        let floats = fixture.work.file("floats.npy")
        let f = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", "import numpy as np; np.save('\(floats)', np.zeros(3))"]), timeout: 60)
        try #require(f.exitCode == 0)
        let bad = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--uid-list", floats, "--output-folder", fixture.work.file("x")])
        #expect(bad.exitCode == 2 && bad.stderrText.contains("floats.npy") && bad.stderrText.contains("u8,u8"), "\(bad.stderrText)")
    }

    @Test func whereConditionsKeepTheRowsTheyDescribeAndABadOneIsAClearError() async throws {
        let fixture = try DatasetFixture(count: 60)
        let old = try await Self.oldDataset(fixture)
        fixture.server.stop()
        let before = try await ReshapeRead.read(old, format: "webdataset")
        let new = fixture.work.file("new")
        let r = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "no",
                                          "--where", "n>=30", "--where", "tag == 't1'", "--where", "width!=7",
                                          "--output-format", "parquet", "--output-folder", new, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let after = try await ReshapeRead.read(new, format: "parquet")
        let wanted = before.keys.filter { key in
            let n = before.meta(key)["n"] as? Int ?? -1
            return n >= 30 && before.meta(key)["tag"] as? String == "t1"
        }
        #expect(!wanted.isEmpty && after.keys.sorted() == wanted.sorted(), "kept \(after.keys.sorted()), wanted \(wanted.sorted())")
        for (condition, words) in [("width=>3", "expected COLUMN OP VALUE"), ("width>big", "is not one"), ("==3", "expected COLUMN OP VALUE")] {
            let bad = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--where", condition, "--output-folder", fixture.work.file("x")])
            #expect(bad.exitCode == 2 && bad.stderrText.contains(words) && bad.stderrText.contains(condition), "\(condition): \(bad.stderrText)")
        }
        let missing = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--where", "colour==red", "--output-folder", fixture.work.file("y")])
        #expect(missing.exitCode == 2 && missing.stderrText.contains("00000.tar") && missing.stderrText.contains("colour"), "\(missing.stderrText)")
    }

    /// `--bbox-col` on a reshape blurs with the boxes the old metadata holds: inside the box the pixels change,
    /// elsewhere they stay (but for the JPEG re-encode), and the column is carried over with its type: an old
    /// dataset made from a Parquet list whose `face_bboxes` is `list<list<double>>`, as DataComp's.
    @Test func blurringIsAddedFromTheOldMetadatasBoxes() async throws {
        let fixture = try DatasetFixture(count: 12)
        var text = ""
        for r in fixture.rows {
            let object: [String: Any] = ["url": r.url, "text": "caption", "face_bboxes": [[0.1, 0.1, 0.5, 0.5]]]
            text += String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        let jsonl = try fixture.work.write(Array(text.utf8), to: "boxes.jsonl")
        let list = fixture.work.file("boxes.parquet")
        let w = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", "import sys, pyarrow.json as pj, pyarrow.parquet as pq; pq.write_table(pj.read_json(sys.argv[1]), sys.argv[2])", jsonl, list]), timeout: 60)
        try #require(w.exitCode == 0, "\(w.stderrText)")
        let old = fixture.work.file("old"), new = fixture.work.file("new")
        let a = try await DatasetCLI.run(["--url-list", list, "--input-format", "parquet", "--caption-col", "text", "--save-additional-columns",
                                          "face_bboxes", "--min-image-size", "16", "--max-aspect-ratio", "5", "--output-format", "webdataset",
                                          "--resize-mode", "keep_ratio", "--image-size", "128", "--output-folder", old, "--quiet"])
        try #require(a.exitCode == 0, "\(a.stderrText)")
        fixture.server.stop()
        let b = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--bbox-col", "face_bboxes", "--resize-mode", "no",
                                          "--output-format", "webdataset", "--output-folder", new, "--quiet"])
        try #require(b.exitCode == 0, "\(b.stderrText)")
        let script = """
            import sys, tarfile, io, json, numpy as np, pyarrow.parquet as pq
            from PIL import Image
            a, b = tarfile.open(sys.argv[1] + "/00000.tar"), tarfile.open(sys.argv[2] + "/00000.tar")
            out = []
            for n in sorted(a.getnames()):
                if not n.endswith(".jpg"): continue
                x = np.asarray(Image.open(io.BytesIO(a.extractfile(n).read())).convert("L"), float)
                y = np.asarray(Image.open(io.BytesIO(b.extractfile(n).read())).convert("L"), float)
                h, w = x.shape; d = abs(x - y)
                meta = json.loads(b.extractfile(n[:-4] + ".json").read())
                out.append([d[int(.15*h):int(.45*h), int(.15*w):int(.45*w)].mean(), d[int(.75*h):, int(.75*w):].mean(), json.dumps(meta["face_bboxes"])])
            types = [str(pq.read_schema(f + "/00000.parquet").field("face_bboxes").type) for f in sys.argv[1:3]]
            print(json.dumps({"rows": out, "types": types}))
            """
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, old, new]), timeout: 60)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any], "\(r.stderrText)")
        let rows = result["rows"] as? [[Any]] ?? []
        let types = result["types"] as? [String] ?? []
        #expect(types.count == 2 && types[0] == types[1] && types[0].hasPrefix("list<"), "face_bboxes types, old and new: \(types)")
        #expect(rows.count >= 8)
        // A smooth picture (a PNG gradient of the fixture) changes little when blurred: most must change much.
        let blurred = rows.filter { ($0[0] as? Double ?? 0) > 3 }.count
        #expect(blurred * 3 >= rows.count * 2, "\(rows.map { $0[0] })")
        for row in rows {
            #expect((row[1] as? Double ?? 99) < 0.5, "outside the box: \(row[1])")
            #expect(row[2] as? String == "[[0.1, 0.1, 0.5, 0.5]]", "\(row[2])")
        }
    }

    /// A tar cut mid-member, a file that is not a tar, a Parquet shard without an image column: each an error
    /// naming the file, and the new shards finished before it stay whole.
    @Test func aTruncatedOrForeignShardIsAClearErrorAndTheShardsWrittenStay() async throws {
        let fixture = try DatasetFixture(count: 60)
        let old = try await Self.oldDataset(fixture)
        fixture.server.stop()
        let before = try await ReshapeRead.read(old, format: "webdataset")
        let firstTwo = before.keys.filter { before.string($0, "shard") != "00002" }.count
        // Cut the last shard inside its first member.
        let last = old + "/00002.tar"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: last)))
        try Data(bytes.prefix(512 * 3 + 100)).write(to: URL(fileURLWithPath: last))
        let new = fixture.work.file("new")
        let r = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "no",
                                          "--number-sample-per-shard", "10", "--output-format", "webdataset", "--output-folder", new, "--quiet"])
        #expect(r.exitCode == 3 && r.stderrText.contains("00002.tar") && r.stderrText.contains("cut short"), "\(r.exitCode): \(r.stderrText)")
        let written = try await ReshapeRead.read(new, format: "webdataset")
        let whole = firstTwo / 10
        #expect(whole >= 2 && (0..<whole).allSatisfy { written.shards[String(format: "%05d", $0)] == 10 }, "\(written.shards)")
        for i in 0..<whole {
            #expect(FileManager.default.fileExists(atPath: new + String(format: "/%05d_stats.json", i)), "shard \(i) has no stats")
        }
        // Not a tar at all.
        try Data("this is not a tar file\n".utf8).write(to: URL(fileURLWithPath: last))
        let foreign = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--output-folder", fixture.work.file("f")])
        #expect(foreign.exitCode == 3 && foreign.stderrText.contains("00002.tar") && foreign.stderrText.contains("not a tar"), "\(foreign.stderrText)")
        // The webdataset's metadata Parquet files hold no images.
        let noImages = try await DatasetCLI.run(["--url-list", old, "--input-format", "parquet-images", "--output-folder", fixture.work.file("p")])
        #expect(noImages.exitCode == 3 && noImages.stderrText.contains("00000.parquet") && noImages.stderrText.contains("no image column"), "\(noImages.stderrText)")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
