import Foundation
import GallerySync
import GalleryTestSupport
import Testing

/// `--retry-failed`: a finished shard with rows that failed to download is rewritten with only those rows
/// fetched again; every other row, its image bytes included, is kept as it was, and a shard without such
/// rows is left alone.
@Suite struct DatasetRetryFailedTests {
    /// Each tar member's or shard file's SHA-256 by name, and each metadata row by key (pyarrow).
    static func snapshot(_ folder: String) async throws -> [String: Any] {
        let script = #"""
        import glob, hashlib, json, os, sys, tarfile
        import pyarrow.parquet as pq
        members, rows = {}, {}
        for p in sorted(glob.glob(sys.argv[1] + "/*.tar")):
            with tarfile.open(p) as tf:
                for m in tf.getmembers():
                    members[m.name] = hashlib.sha256(tf.extractfile(m).read()).hexdigest()
        for p in sorted(glob.glob(sys.argv[1] + "/[0-9]*/*")):
            members[os.path.basename(p)] = hashlib.sha256(open(p, "rb").read()).hexdigest()
        for p in sorted(glob.glob(sys.argv[1] + "/*.parquet")):
            for r in pq.read_table(p).to_pylist():
                rows[r["key"]] = r
        print(json.dumps({"members": members, "rows": rows}, default=str))
        """#
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, folder]), timeout: 120)
        guard r.exitCode == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any] else {
            throw DatasetCLIError.reader(r.stderrText)
        }
        return object
    }

    @Test(arguments: ["webdataset", "files"])
    func onlyTheRowsThatFailedToDownloadAreFetchedAgain(format: String) async throws {
        var fixture = try DatasetFixture(count: 300)
        // Rows 5, 25, 45 ... of shards 0 and 1 answer 503 until the server recovers; shard 2 has none.
        let recovered = Locked(false)
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        fixture.server.route("/flaky.jpg") { _, _ in
            recovered.withLock { $0 } ? .file(photo, contentType: "image/jpeg") : .status(503, text: "busy")
        }
        for i in stride(from: 5, to: 200, by: 20) {
            fixture.rows[i].url = fixture.server.url("/flaky.jpg?\(i)")
        }
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let args = ["--url-list", list, "--input-format", "csv", "--output-format", format, "--output-folder", out, "--quiet"]
            + DatasetFixture.options
        let first = try await DatasetCLI.run(args)
        try #require(first.exitCode == 0, "\(first.stderrText)")
        let before = try await Self.snapshot(out)
        let rowsBefore = try #require(before["rows"] as? [String: [String: Any]])
        #expect(rowsBefore["0000005"]?["status"] as? String == "failed_to_download")
        #expect(rowsBefore["0000005"]?["error_message"] as? String == "HTTP Error 503: Service Unavailable")
        let stats2 = try fixture.work.read("out/00002_stats.json")

        recovered.withLock { $0 = true }
        let seenBefore = fixture.server.allRequests.count
        let again = try await DatasetCLI.run(args + ["--retry-failed"])
        #expect(again.exitCode == 0, "\(again.stderrText)")
        // Only what failed to download was asked: the 10 flaky rows and the 404s of shards 0 and 1 (shard 2's
        // 404s too: they failed to download there as well), nothing that succeeded or failed to resize.
        let asked = fixture.server.allRequests.dropFirst(seenBefore).filter { $0.path != "/robots.txt" && $0.path != "/.well-known/tdmrep.json" }
        #expect(asked.filter { $0.path == "/flaky.jpg" }.count == 10)
        #expect(Set(asked.map(\.path)) == ["/flaky.jpg", "/missing.jpg"], "\(Set(asked.map(\.path)))")
        #expect(asked.count == 10 + 15, "\(asked.count) requests")

        let after = try await Self.snapshot(out)
        let rowsAfter = try #require(after["rows"] as? [String: [String: Any]])
        let membersBefore = try #require(before["members"] as? [String: String])
        let membersAfter = try #require(after["members"] as? [String: String])
        #expect(rowsAfter.count == 300)
        #expect(rowsAfter["0000005"]?["status"] as? String == "success")
        #expect(rowsAfter["0000185"]?["status"] as? String == "success")
        #expect(membersAfter["0000005.jpg"] != nil)
        // Every member the first run wrote is still there with the same bytes (each .json of a kept row too).
        var changed: [String] = []
        for (name, hash) in membersBefore where membersAfter[name] != hash { changed.append(name) }
        #expect(changed.isEmpty, "\(changed.sorted().prefix(10))")
        for (key, row) in rowsBefore where (row["status"] as? String) != "failed_to_download" {
            #expect(NSDictionary(dictionary: row).isEqual(to: rowsAfter[key] ?? [:]), "row \(key) changed")
        }
        let stats = try JSONSerialization.jsonObject(with: Data(try fixture.work.read("out/00000_stats.json"))) as? [String: Any]
        #expect(stats?["successes"] as? Int == 75, "\(stats ?? [:])")
        #expect(stats?["failed_to_download"] as? Int == 5)
        // Shard 2's retried rows failed again the same way; it is written again with the same content.
        #expect(try fixture.work.read("out/00002_stats.json") != stats2)
    }
}
