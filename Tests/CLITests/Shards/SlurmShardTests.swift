import Foundation
import GalleryTestSupport
import Testing

/// The shards as a real Slurm cluster runs them: `deploy/slurm/shards.sh` as a job array, the merge
/// as a job depending on it, a shard killed part-way and run again. The cluster is started by the
/// tests' own harness (``SlurmCluster``); Scripts/test runs this suite alone (it uses both CPUs).
@Suite(.serialized, .enabled(if: SlurmCluster.isInstalled, "Slurm is not installed (Scripts/bootstrap installs slurm-wlm and munge)"))
struct SlurmShardTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../deploy/slurm").standardized.path
    static var jobEnvironment: [String: String] { ["FETCH_GALLERY": GalleryCLIKit.binary] }

    @Test func arrayOfFourShardsThenADependentMergeEqualsOneProcess() async throws {
        let cluster = try SlurmCluster()
        let dir = try TempDirectory()
        let (server, source) = try await ShardCLIKit.demoGallery(oneProcessOut: dir.file("one"))
        defer { server.send(SIGTERM) }

        let out = dir.file("sharded")
        let array = try cluster.submit(["--array=0-3", "-o", "shard-%A_%a.out", Self.deploy + "/shards.sh"] + source + ["--out", out],
                                       environment: Self.jobEnvironment)
        let merge = try cluster.submit(["--dependency=afterok:\(array)", "-o", "merge-%j.out", Self.deploy + "/merge.sh", out],
                                       environment: Self.jobEnvironment)
        let states = try cluster.waitForJobs([array, merge], timeout: 900)
        #expect(states.count == 5, "\(states)")
        for (name, job) in states {
            #expect(job.state == "COMPLETED" && job.exitCode == 0, "\(name): \(job)\n\(cluster.output("shard-\(name).out"))")
        }
        #expect(cluster.output("merge-\(merge).out").contains("from 4 of 4 shards"), "\(cluster.output("merge-\(merge).out"))")
        try ShardCLIKit.expectSameGallery(dir.file("one"), out)
    }

    @Test func shardKilledPartWayAndRunAgainResumesByteExact() async throws {
        let cluster = try SlurmCluster()
        // 4 pages of 2 photos of ~300 kB; every image trickles at 40 kB/s, so a shard takes ~7 s. The trickle
        // counts each 1/10 s slice before sending it: the slices in flight at the kill (2 x 4 kB) are
        // counted but never arrive, within the 2% allowance.
        let catalogue = try KillResumeCatalogue(photos: ["exif-orientation/Landscape_1.jpg", "exif-orientation/Portrait_1.jpg"])
        let api = catalogue.api
        let dir = try TempDirectory()
        let source = catalogue.source
        try catalogue.runOneProcess(out: dir.file("one"))
        let victimPaths = api.pages[1].map { api.imagePath($0) }  // shard 1 of 4 owns page 2
        let before = victimPaths.map { api.server.bodyBytesSent(path: $0) }.reduce(0, +)

        try catalogue.serve { response, _ in response.trickle(bytesPerSecond: 40_000) }
        let out = dir.file("sharded")
        let array = try cluster.submit(["--array=0-3", "-o", "shard-%A_%a.out", Self.deploy + "/shards.sh"] + source + ["--out", out],
                                       environment: Self.jobEnvironment)
        // Kill shard 1 once a third of its bytes have arrived.
        let total = api.pages[1].map { try! Corpus.bytes(api.files[$0]!).count }.reduce(0, +)
        let third = try await GalleryCLIKit.waitFor(120) {
            victimPaths.map { api.server.bodyBytesSent(path: $0) }.reduce(0, +) - before >= total / 3
        }
        try #require(third, "a third of shard 1's bytes never arrived: nothing to resume\n\(cluster.output("shard-\(array)_1.out"))")
        try cluster.cancel(["--signal=KILL", "--full", "\(array)_1"])
        let states = try cluster.waitForJobs([array], timeout: 300)
        #expect(states.count == 4, "\(states)")
        let killed = try #require(states["\(array)_1"], "shard 1 missing from Slurm's answer: \(states)")
        #expect(killed.state != "COMPLETED", "\(states)")
        #expect(!FileManager.default.fileExists(atPath: out + "/shards/1-of-4.summary.json"))
        // The kill left a partial download to resume.
        let staging = out + "/.fetch-gallery/shards/1-of-4/staging"
        let partial = (FileManager.default.enumerator(atPath: staging)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") }
        let partialBytes = partial.compactMap { try? FileManager.default.attributesOfItem(atPath: staging + "/" + $0)[.size] as? Int }
        #expect(partialBytes.contains { $0 > 0 }, "no partial download in \(staging): \(partial) \(partialBytes)")
        let requestsBeforeRerun = victimPaths.map { api.server.requests(path: $0).count }
        let merged = try ShardCLIKit.merge(out)
        #expect(merged.exitCode == 1 && merged.stderrText.contains("unfinished") && merged.stderrText.contains("1/4"), "\(merged.stderrText)")

        // Slurm runs it again (the count given, so an array of that one shard will do).
        try catalogue.serve()
        let again = try cluster.submit(["--array=1", "-o", "again-%A_%a.out", Self.deploy + "/shards.sh"] + source + ["--out", out],
                                       environment: Self.jobEnvironment.merging(["SHARDS": "4"]) { $1 })
        let rerun = try cluster.waitForJobs([again], timeout: 300)
        #expect(rerun.values.allSatisfy { $0.state == "COMPLETED" && $0.exitCode == 0 }, "\(rerun)\n\(cluster.output("again-\(again)_1.out"))")
        let sent = victimPaths.map { api.server.bodyBytesSent(path: $0) }.reduce(0, +) - before
        #expect(Double(sent) <= Double(total) * 1.02, "the server sent \(sent) bytes for shard 1's \(total)")
        #expect(sent >= total)
        // The re-run asked for the rest of a partial file with Range.
        let ranged = zip(victimPaths, requestsBeforeRerun).flatMap { path, earlier in api.server.requests(path: path).dropFirst(earlier) }
            .compactMap { $0.headers["Range"] }
        #expect(!ranged.isEmpty, "no Range request on the re-run")
        let final = try ShardCLIKit.merge(out)
        #expect(final.exitCode == 0, "\(final.stderrText)")
        try ShardCLIKit.expectSameGallery(dir.file("one"), out)

        // A job Slurm does not report is never taken as ended.
        #expect {
            _ = try cluster.waitForJobs([array, "999999"], timeout: 2)
        } throws: { "\($0)".contains("not reported by scontrol: [\"999999\"]") }
    }
}
