import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery dataset` through the launchers: one task per `--shard K/N`, no merge, the summary from
/// the shards' `_stats.json`; a task's Python worker killed takes its fetch-gallery with it, and the
/// engine's retry redoes only the unfinished dataset shard.
extension EngineLaunchTests {
    @Test(arguments: Engine.allCases)
    func aDatasetOfFourTasksEqualsOneProcesssAfterAWorkerIsKilled(engine: Engine) async throws {
        try EngineCLIKit.requireEngine(engine)
        // 400 rows, 50 a dataset shard: 8 shards, task k of 4 writes shards k and k + 4. Row 260 (shard 5,
        // task 1's second) stops after its first kB until the kill; --timeout 600 keeps it waiting.
        var fixture = try DatasetFixture(count: 400)
        let server = fixture.server
        for i in fixture.rows.indices where !fixture.rows[i].url.contains("?") { fixture.rows[i].url += "?\(i)" }  // a row's requests by query
        let gate = "/gate.img"
        fixture.rows[260].url = server.url(gate + "?260")
        let photo = try Corpus.bytes(DatasetFixture.photoNames[0])
        server.route(gate) { _, _ in .file(photo, contentType: "image/jpeg") }
        let list = try fixture.writeCSV()
        let dir = fixture.work
        func arguments(_ out: String) -> [String] {
            ["dataset", "--url_list", list, "--input_format", "csv", "--output_format", "webdataset", "--output_folder", out,
             "--caption_col", "text", "--save_additional_columns", "n,tag", "--min_image_size", "16", "--max_aspect_ratio", "5",
             "--number_sample_per_shard", "50", "--timeout", "600"]
        }
        let one = try ProcessRunner.run(GalleryCLIKit.binary, arguments(dir.file("one")) + ["--quiet"], timeout: 300)
        try #require(one.exitCode == 0, "the one-process dataset failed: \(one.stderrText)")

        let heldAttempt = server.requests(path: gate).count + 1
        server.route(gate) { _, attempt in
            let response = FaultServer.Response.file(photo, contentType: "image/jpeg")
            return attempt == heldAttempt ? response.stall(afterBodyBytes: 1_000, seconds: 600) : response
        }
        let requestsBefore = server.allRequests.count
        let wrapper = try EngineCLIKit.Wrapper(in: dir)
        let out = dir.file("sharded")
        // --quiet: a shard that wrote its progress to the dead worker's pipe would die of it (EPIPE) anyway.
        let job = try EngineCLIKit.launch(engine, shards: 4, arguments(out) + ["--quiet"], binary: wrapper.path)
        let midway = try await EngineCLIKit.waitFor(job) {
            server.requests(path: gate).count >= heldAttempt && FileManager.default.fileExists(atPath: out + "/00001_stats.json")
        }
        try #require(midway == .reached, "task 1 never held row 260 with shard 1 written: \(midway)\n\(job.stdoutText)\n\(job.stderrText.suffix(3000))")
        #expect(!FileManager.default.fileExists(atPath: out + "/00005_stats.json"))

        // Kill the task's Python worker (the fetch-gallery's parent), as an engine losing a node or the OOM killer does.
        let child = try #require(wrapper.runs(of: "1/4").first, "no process ran shard 1/4: \(wrapper.calls())").pid
        let worker = try #require(EngineCLIKit.parent(of: child), "shard 1/4's fetch-gallery (\(child)) is gone already")
        let command = EngineCLIKit.commandLine(worker)
        try #require(worker > 1 && worker != getpid() && ["ray::", "pyspark", "python"].contains { command.contains($0) },
                     "the parent of shard 1/4's fetch-gallery is not the engine's Python worker: \(worker) \(command)")
        kill(worker, SIGKILL)
        let childGone = try await GalleryCLIKit.waitFor(60) { !EngineCLIKit.isRunning(child) }
        #expect(childGone, "\(engine): shard 1/4's fetch-gallery (\(child)) outlived its killed worker (\(worker) \(command))")
        if !childGone { kill(child, SIGKILL) }  // the check failed: end it here, not at the server's stop

        let result = job.wait(timeout: 900)
        #expect(result.exitCode == 0, "\(engine): \(result.stdoutText.suffix(3000))\n\(result.stderrText.suffix(3000))")
        #expect(result.stdoutText.contains("shard 1/4: started (try 2)"), "\(result.stdoutText)")
        #expect(wrapper.runs(of: "1/4").count == 2, "\(wrapper.calls())")
        for k in [0, 2, 3] { #expect(wrapper.runs(of: "\(k)/4").count == 1, "\(wrapper.calls())") }
        // Every row fetched once, but shard 5's (redone whole): the retry left finished shard 1 alone.
        var requests: [Int: Int] = [:]
        for request in server.allRequests.dropFirst(requestsBefore) {
            if let row = request.query.flatMap({ Int($0) }) { requests[row, default: 0] += 1 }
        }
        let refetched = requests.filter { $0.value != 1 && !(250..<300).contains($0.key) }
        #expect(requests.count == 400 && refetched.isEmpty, "\(requests.count) rows asked for; more or less than once: \(refetched.sorted { $0.key < $1.key })")
        #expect(requests.filter { (250..<300).contains($0.key) }.allSatisfy { $0.value <= 2 })

        let samples = try await EngineCLIKit.datasetSamples(dir.file("one"))
        #expect(samples.count == 400)
        let sharded = try await EngineCLIKit.datasetSamples(out)
        let differing = Set(samples.keys).union(sharded.keys).sorted().filter { samples[$0] != sharded[$0] }
        #expect(differing.isEmpty, "\(engine): samples that differ from one process's: \(differing.prefix(5).map { "\($0): \(samples[$0] ?? [:]) and \(sharded[$0] ?? [:])" })")
        // The summary, as img2dataset gives it, from the shards' stats.
        let counts = Dictionary(grouping: samples.values, by: { $0["status"] ?? "?" }).mapValues(\.count)
        let summary = result.stderrText.split(separator: "\n").first { $0.hasPrefix("launch: dataset \(out): ") } ?? "none"
        #expect(summary.contains("8 shards, 400 rows: \(counts["success", default: 0]) success (")
                && summary.contains(" \(counts["failed_to_download", default: 0]) failed_to_download (")
                && summary.contains(" \(counts["failed_to_resize", default: 0]) failed_to_resize (")
                && summary.contains(" \(counts["opted_out", default: 0]) opted_out ("),
                "\(counts): \(summary)")
        #expect(result.stderrText.contains("launch: most frequent errors: ") && result.stderrText.contains("HTTP Error 404: Not Found (20)"),
                "\(result.stderrText.suffix(2000))")
        #expect(!result.stderrText.contains(" merge"), "\(result.stderrText.suffix(2000))")
    }

    /// The lines a dataset's task sends the driver, from the real binary's `--progress json` (no engine needed).
    @Test func aDatasetsProgressReachesTheDriverAsRowsAndShardsWritten() throws {
        let fixture = try DatasetFixture(count: 100)
        let dataset = try ProcessRunner.run(GalleryCLIKit.binary, ["dataset", "--url-list", try fixture.writeCSV(), "--input-format", "csv",
                                                                    "--output-folder", fixture.work.file("d"), "--progress", "json"]
                                            + DatasetFixture.options.map { $0 == "100" ? "50" : $0 }, timeout: 300)
        try #require(dataset.exitCode == 0, "\(dataset.stderrText)")
        let relay = try ProcessRunner.run("python3", ["-c", """
            import sys; sys.path.insert(0, sys.argv[1]); import launch_common
            for line in open(sys.argv[2]): print(launch_common.progress_line(line))
            """, EngineCLIKit.deploy, try fixture.work.write(Array(dataset.stdoutText.utf8), to: "progress.jsonl")], timeout: 120)
        try #require(relay.exitCode == 0, "\(relay.stderrText)")
        let lines = relay.stdoutText.split(separator: "\n").filter { $0 != "None" }
        let written = fixture.rows.prefix(50).filter { $0.status == "success" }.count
        #expect(lines.contains("wrote 00000: \(written) of 50 rows success") && lines.contains { $0.hasPrefix("wrote 00001: ") }, "\(lines)")
        #expect(lines.last?.hasPrefix("done: 100/100 rows, \(fixture.rows.filter { $0.status != "success" }.count) failed, ") == true, "\(lines)")
    }

    /// A dataset in a bucket: the driver's summary says where the counts are, not that no shard is written.
    @Test func aDatasetInABucketsSummarySaysWhereTheCountsAre() throws {
        let dir = try TempDirectory()
        let summary = try ProcessRunner.run("python3", ["-c", """
            import sys; sys.path.insert(0, sys.argv[1]); import launch_common
            launch_common.print_dataset_summary("s3://bucket/ds", sys.argv[2])
            """, EngineCLIKit.deploy, dir.path], timeout: 120)
        #expect(summary.exitCode == 0, "\(summary.stderrText)")
        #expect(summary.stderrText.contains("launch: dataset s3://bucket/ds: each shard's counts are in its NNNNN_stats.json there"),
                "\(summary.stderrText)")
        #expect(!summary.stderrText.contains("no shard's _stats.json yet"), "\(summary.stderrText)")
    }

    @Test func aDatasetInOverwriteOrExtendModeOrWithItsOwnShardIsRefused() throws {
        let dir = try TempDirectory()
        let wrapper = try EngineCLIKit.Wrapper(in: dir)
        for (extra, reason) in [(["--incremental_mode", "overwrite"], "--incremental-mode overwrite would delete other tasks' shards"),
                                (["--incremental-mode=extend"], "extend would number each task's differently"),
                                (["--shard_from_env"], "leave --shard and --shard-from-env out")] {
            let job = try EngineCLIKit.launch(.ray, shards: 4, ["dataset", "--url-list", dir.file("urls.txt"), "--output-folder", dir.file("d")] + extra,
                                              binary: wrapper.path).wait(timeout: 300)
            #expect(job.exitCode == 2 && job.stderrText.contains(reason), "\(extra): \(job.stderrText)")
        }
        #expect(wrapper.calls().isEmpty, "\(wrapper.calls())")
    }
}
