import Foundation
import GalleryImaging
import GallerySync
import GalleryTestSupport
import Testing

/// Resuming: a shard with its `_stats.json` is done and not fetched again; a shard without it is redone whole;
/// a run killed midway and run again completes the dataset with every row once, and removes the large bodies
/// the killed run had spooled.
@Suite struct DatasetResumeTests {
    /// Image requests (each run also asks the origin's robots.txt and tdmrep.json once).
    func requests(_ fixture: DatasetFixture) -> Int {
        fixture.server.allRequests.filter { $0.path != "/robots.txt" && $0.path != "/.well-known/tdmrep.json" }.count
    }

    @Test func aShardWithItsStatsIsSkippedAndOneWithoutIsRedone() async throws {
        let fixture = try DatasetFixture(count: 300)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let args = ["--url-list", list, "--input-format", "csv", "--output-format", "webdataset", "--output-folder", out, "--quiet"]
            + DatasetFixture.options
        let first = try await DatasetCLI.run(args)
        try #require(first.exitCode == 0, "\(first.stderrText)")
        let before = try fixture.work.read("out/00001.tar")
        // Shard 2 loses its stats (as if the run had died before writing them): only its 100 rows are fetched again.
        try FileManager.default.removeItem(atPath: fixture.work.file("out/00002_stats.json"))
        let asked = requests(fixture)
        let again = try await DatasetCLI.run(args)
        #expect(again.exitCode == 0, "\(again.stderrText)")
        #expect(requests(fixture) - asked == 100)
        #expect(try fixture.work.read("out/00001.tar") == before)
        #expect(FileManager.default.fileExists(atPath: fixture.work.file("out/00002_stats.json")))
        // overwrite starts again; extend adds shards after the last one.
        let extend = try await DatasetCLI.run(args + ["--incremental-mode", "extend"])
        #expect(extend.exitCode == 0)
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
        #expect(rows.count == 600 && rows["0000599"] != nil)
        let overwrite = try await DatasetCLI.run(args + ["--incremental-mode", "overwrite"])
        #expect(overwrite.exitCode == 0)
        #expect(DatasetCLI.rows(try await DatasetCLI.read(out)).count == 300)
    }

    @Test func killedMidwayThenRunAgainCompletes() async throws {
        let fixture = try DatasetFixture(count: 400)
        // Slow photos, so the kill lands in the middle of the run.
        let slow = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        fixture.server.route("/p/1.img") { _, _ in usleep(150_000); return .file(slow, contentType: "image/jpeg") }
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let args = ["dataset", "--url-list", list, "--input-format", "csv", "--output-folder", out, "--quiet", "--jobs", "4"]
            + DatasetFixture.options
        let runner = try ProcessRunner(DownloadCLI.binary, args)
        var shardsDone = 0
        // Polled every 20 ms until the first shard is written (up to 60 s: a loaded machine took over 6 s).
        for _ in 0..<3000 {
            usleep(20_000)
            shardsDone = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix("_stats.json") }.count
            if shardsDone >= 1 { break }
        }
        runner.send(SIGKILL)
        _ = await DownloadCLI.wait(runner, timeout: 30)
        #expect(shardsDone >= 1 && shardsDone < 4, "killed after \(shardsDone) shards")
        let again = try await DatasetCLI.run(Array(args.dropFirst()))
        #expect(again.exitCode == 0, "\(again.stderrText)")
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
        #expect(rows.count == 400)
        #expect(rows.values.filter { $0["status"] as? String == "success" }.count == fixture.rows.filter { $0.status == "success" }.count)
    }

    /// A large body waits in a file under the output folder while it arrives; a run killed then leaves it, and
    /// the next run removes it (and its own files: nothing of the spool is left when it ends).
    @Test func aKilledRunsSpooledBodyIsRemovedByTheNextRun() async throws {
        let fixture = try DatasetFixture(count: 20)
        // A demo photograph as a PNG (about 3 MB); the first request for it stalls half-way for a minute.
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path + "/Sources/GalleryDemo/Resources/demo-photos/evening-boats.jpg"
        let png = try ImageEncoder.encodePNG(ImageDecoder.decode(fileAt: demo).bitmap)
        let asked = Locked(0)
        fixture.server.route("/big.png") { _, _ in
            let first = asked.withLock { n in
                n += 1
                return n == 1
            }
            return first ? .file(png, contentType: "image/png").stall(afterBodyBytes: 1_000_000, seconds: 60)
                : .file(png, contentType: "image/png")
        }
        let list = try fixture.writeCSV()
        let text = try String(contentsOfFile: list, encoding: .utf8) + fixture.server.url("/big.png") + ",\"big\",20,t2\n"
        try text.write(toFile: list, atomically: true, encoding: .utf8)
        let out = fixture.work.file("out"), spool = out + "/.fetch-gallery-spool"
        let args = ["dataset", "--url-list", list, "--input-format", "csv", "--output-folder", out, "--quiet"] + DatasetFixture.options
        let runner = try ProcessRunner(DownloadCLI.binary, args)
        func bodies() -> [String] {
            FileManager.default.subpaths(atPath: spool)?.filter { $0.hasSuffix(".body") } ?? []
        }
        func size(_ name: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: spool + "/" + name)[.size] as? Int) ?? 0 }
        var spooled: [String] = []
        // Polled every 20 ms until the stalled body is in its file (up to 60 s).
        for _ in 0..<3000 {
            usleep(20_000)
            spooled = bodies().filter { size($0) >= 1_000_000 }
            if !spooled.isEmpty { break }
        }
        runner.send(SIGKILL)
        _ = await DownloadCLI.wait(runner, timeout: 30)
        #expect(spooled.count == 1, "the stalled body was not in the spool")
        #expect(bodies() == spooled, "the killed run's body is still there")
        let again = try await DatasetCLI.run(Array(args.dropFirst()))
        #expect(again.exitCode == 0, "\(again.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: spool))
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
        #expect(rows.count == 21 && rows["0000020"]?["status"] as? String == "success")
    }

    /// `--shard K/N`: process K writes the dataset shards i with i mod N == K, so N processes make one dataset.
    @Test func shardsKOfNMakeOneDatasetTogether() async throws {
        let fixture = try DatasetFixture(count: 500)
        let list = try fixture.writeCSV()
        let out = fixture.work.file("out")
        let args = ["--url-list", list, "--input-format", "csv", "--output-folder", out, "--quiet"] + DatasetFixture.options
        let first = try await DatasetCLI.run(args + ["--shard", "0/2"])
        #expect(first.exitCode == 0, "\(first.stderrText)")
        let stats = { ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix("_stats.json") }.sorted() }
        #expect(stats() == ["00000_stats.json", "00002_stats.json", "00004_stats.json"])
        let second = try await DatasetCLI.run(args + ["--shard", "1/2"])
        #expect(second.exitCode == 0, "\(second.stderrText)")
        #expect(stats().count == 5)
        #expect(DatasetCLI.rows(try await DatasetCLI.read(out)).count == 500)
    }
}
