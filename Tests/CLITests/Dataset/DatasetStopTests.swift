import Foundation
import GallerySync
import GalleryTestSupport
import Testing

/// Ctrl-C (SIGINT) or SIGTERM stops a dataset run through the run: no new row starts, the downloads in flight
/// are abandoned at once (a stalled one too), each started shard is closed with the rows that finished and marked
/// partial, and the command exits 130 or 143. The same command then fetches only the rows that were not finished,
/// and the dataset ends with every row exactly once.
@Suite struct DatasetStopTests {
    /// Image requests (each run also asks the origin's robots.txt and tdmrep.json once).
    static func requests(_ fixture: DatasetFixture) -> Int {
        fixture.server.allRequests.filter { $0.path != "/robots.txt" && $0.path != "/.well-known/tdmrep.json" }.count
    }

    // Off the cooperative pool: other CLI tests block its threads while they wait for their processes, and the
    // time the stop took would count that wait.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aStoppedRunKeepsItsFinishedRowsAndTheNextFetchesOnlyTheRest(signal: Int32, status: Int32) async throws {
        try await DedicatedTaskExecutor.offPool { try await Self.stopAndResume(signal, status: status) }
    }

    static func stopAndResume(_ signal: Int32, status: Int32) async throws {
        var fixture = try DatasetFixture(count: 200)
        // Every photo takes 60 ms, so the stop lands mid-shard; row 5's first request stalls for a minute, so the
        // stop must abandon a transfer in flight rather than wait for it.
        for (i, name) in DatasetFixture.photoNames.enumerated() {
            let bytes = try Corpus.bytes(name)
            fixture.server.route("/p/\(i).img") { _, _ in usleep(60_000); return .file(bytes, contentType: "image/jpeg") }
        }
        let stalled = Locked(0)
        let photo = try Corpus.bytes(DatasetFixture.photoNames[0])
        fixture.server.route("/stall.jpg") { _, _ in
            if stalled.withLock({ n in n += 1; return n }) == 1 { sleep(60) }
            return .file(photo, contentType: "image/jpeg")
        }
        fixture.rows[5].url = fixture.server.url("/stall.jpg")
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let args = ["dataset", "--url-list", list, "--input-format", "csv", "--output-format", "webdataset",
                    "--output-folder", out, "--jobs", "4"] + DatasetFixture.options
        let process = try ProcessRunner(DownloadCLI.binary, args)
        for _ in 0..<3000 where requests(fixture) < 40 { try await Task.sleep(nanoseconds: 20_000_000) }
        let askedBeforeStop = requests(fixture)
        let stoppedAt = Date()
        process.send(signal)
        let first = await DownloadCLI.wait(process, timeout: 60)
        let stopTook = Date().timeIntervalSince(stoppedAt)
        #expect(askedBeforeStop >= 40, "the run never got going: \(first.stderrText)")
        #expect(first.exitCode == status, "\(first.stderrText)")
        #expect(first.stderrText.contains("stopped: "), "\(first.stderrText)")
        #expect(stopTook < 15, "the stop waited \(stopTook) s (for the stalled download?)")
        #expect(FileManager.default.fileExists(atPath: out + "/00000_partial.json"))
        #expect(!FileManager.default.fileExists(atPath: out + "/00000_stats.json"))

        // What the stopped run kept: read by the readers users run, every row once.
        let partial = try await DatasetCLI.read(out)
        let kept = Self.rowCount(partial)
        #expect(kept >= 20 && kept < 200, "\(kept) rows kept")
        #expect(DatasetCLI.rows(partial).count == kept, "a row was written twice")
        #expect(DatasetCLI.rows(partial)["0000005"] == nil, "the abandoned row was recorded")
        let asked = requests(fixture)

        let again = try await DatasetCLI.run(Array(args.dropFirst()) + ["--quiet"])
        #expect(again.exitCode == 0, "\(again.stderrText)")
        // Only what the stopped run had not finished is fetched again: nothing it kept.
        #expect(requests(fixture) - asked == 200 - kept)
        let whole = try await DatasetCLI.read(out)
        let rows = DatasetCLI.rows(whole)
        #expect(Self.rowCount(whole) == 200 && rows.count == 200)
        for (i, expected) in fixture.rows.enumerated() {
            let key = String(format: "%07d", i)
            #expect(rows[key]?["status"] as? String == expected.status, "row \(key)")
        }
        let members = (whole["tars"] as? [String: [String]] ?? [:]).values.flatMap { $0 }
        #expect(Set(members).count == members.count, "a tar member appears twice")
        #expect((whole["stats"] as? [String: Any])?.count == 2)
        #expect(!FileManager.default.fileExists(atPath: out + "/00000_partial.json"))
    }

    /// Every metadata row of every shard, duplicates counted.
    static func rowCount(_ dataset: [String: Any]) -> Int {
        (dataset["parquet"] as? [String: [String: Any]] ?? [:]).values.reduce(0) { $0 + (($1["rows"] as? [Any])?.count ?? 0) }
    }
}
