import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery plan` (the listing read once into OUT/plan.jsonl) and `run --from-plan`, whole or
/// as shards taking the plan's lines i mod N.
@Suite struct PlanCommandTests {
    static func plan(_ api: GalleryCLIKit, pages: Int, out: String) throws -> ProcessResult {
        try ProcessRunner.run(GalleryCLIKit.binary, ["plan", "--api", api.server.baseURL, "--pages", "\(pages)", "--out", out],
                              timeout: 60)
    }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func planThenFourShardsAndMergeEqualOneProcess() async throws {
        let api = try GalleryCLIKit(pages: 7, perPage: 3)
        let dir = try TempDirectory()
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["--api", api.server.baseURL, "--pages", "7", "--out", dir.file("one")]
                                        + ShardCLIKit.fast, timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        let listingsBefore = api.server.requests(path: "/photos").count

        let planned = try Self.plan(api, pages: 7, out: dir.file("sharded"))
        #expect(planned.exitCode == 0, "stderr: \(planned.stderrText)")
        #expect(planned.stderrText.contains("21 photos from 7 pages"), "\(planned.stderrText)")
        let lines = try Self.lines(dir.file("sharded/plan.jsonl"))
        #expect(lines.count == 23 && lines[0].hasPrefix("{\"plan\":") && lines[22].hasPrefix("{\"end\":"))
        #expect(lines[22].contains("\"photos\":21"))
        // The plan read the listing once and fetched no photo.
        #expect(api.server.allRequests.filter { $0.path.hasPrefix("/img/") }.count == 21)  // the one process only
        #expect(api.server.requests(path: "/photos").count == listingsBefore + 7)

        let shards = try ShardCLIKit.runShards(4, ["--from-plan"], out: dir.file("sharded"))
        for (k, result) in shards.enumerated() { #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)") }
        // The shards read no listing page: the plan has it.
        #expect(api.server.requests(path: "/photos").count == listingsBefore + 7)
        // Shard 1 of 4 took plan lines 1, 5, 9, 13, 17 (from 0).
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("sharded/shards/1-of-4.summary.json")))) as? [String: Any]
        #expect(summary?["photos"] as? Int == 5 && summary?["photos_ok"] as? Int == 5)
        let merged = try ShardCLIKit.merge(dir.file("sharded"))
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("sharded"))

        // One process from the plan gives the same gallery too.
        let whole = dir.file("whole")
        try FileManager.default.createDirectory(atPath: whole, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dir.file("sharded/plan.jsonl"), toPath: whole + "/plan.jsonl")
        let fromPlan = try ProcessRunner.run(GalleryCLIKit.binary, ["--out", whole, "--from-plan"] + ShardCLIKit.fast, timeout: 120)
        #expect(fromPlan.exitCode == 0, "stderr: \(fromPlan.stderrText)")
        try ShardCLIKit.expectSameGallery(dir.file("one"), whole)
    }

    @Test func planShardsFromSlurmAndKubernetesEnvironment() async throws {
        let api = try GalleryCLIKit(pages: 3, perPage: 3)
        let dir = try TempDirectory()
        let out = dir.file("g")
        #expect(try Self.plan(api, pages: 3, out: out).exitCode == 0)
        let args = ["--out", out, "--from-plan", "--shard-from-env"] + ShardCLIKit.fast
        // Shard 0 as a Slurm array task, shard 1 as a Kubernetes Indexed Job pod.
        let slurm = ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "0",
                     "SLURM_ARRAY_TASK_MAX": "1", "SLURM_ARRAY_TASK_STEP": "1"]
        let task = try ProcessRunner.run(GalleryCLIKit.binary, args, environment: slurm, timeout: 60)
        #expect(task.exitCode == 0, "stderr: \(task.stderrText)")
        let pod = try ProcessRunner.run(GalleryCLIKit.binary, args + ["--shards", "2"], environment: ["JOB_COMPLETION_INDEX": "1"],
                                        timeout: 60)
        #expect(pod.exitCode == 0, "stderr: \(pod.stderrText)")
        for k in 0..<2 {
            let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/shards/\(k)-of-2.summary.json"))) as? [String: Any]
            #expect(summary?["photos"] as? Int == (k == 0 ? 5 : 4))
        }
        let merged = try ShardCLIKit.merge(out)
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        #expect(try GalleryCLIKit.manifestPhotos(out).map { $0["id"] as? Int } == api.allIDs)
    }

    @Test func planningAgainWritesTheSameFile() async throws {
        let api = try GalleryCLIKit(pages: 3, perPage: 4)
        let dir = try TempDirectory()
        let out = dir.file("g")
        #expect(try Self.plan(api, pages: 3, out: out).exitCode == 0)
        let path = out + "/plan.jsonl"
        let first = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(20))
        #expect(try Self.plan(api, pages: 3, out: out).exitCode == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == first)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["plan.jsonl"])
    }

    @Test func damagedPlanFailsNamingTheFileAndLineAndFetchesNothing() async throws {
        let api = try GalleryCLIKit(pages: 2, perPage: 3)
        let dir = try TempDirectory()
        let out = dir.file("g")
        #expect(try Self.plan(api, pages: 2, out: out).exitCode == 0)
        let path = out + "/plan.jsonl"
        let whole = try Self.lines(path)
        func run(_ text: String) throws -> ProcessResult {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return try ProcessRunner.run(GalleryCLIKit.binary, ["--out", out, "--from-plan", "--shard", "0/2"] + ShardCLIKit.fast,
                                         timeout: 60)
        }
        // Cut after a whole photo line: no end line.
        let cut = try run(whole.prefix(4).joined(separator: "\n") + "\n")
        #expect(cut.exitCode == 3 && cut.stderrText.contains(path) && cut.stderrText.contains("truncated"), "\(cut.stderrText)")
        // Cut inside a line.
        let torn = try run(whole.joined(separator: "\n").dropLast(30) + "")
        #expect(torn.exitCode == 3 && torn.stderrText.contains(path) && torn.stderrText.contains("cut short"), "\(torn.stderrText)")
        // A damaged line (the 4th) is named.
        var damaged = whole
        damaged[3] = String(damaged[3].prefix(20)) + "}"
        let bad = try run(damaged.joined(separator: "\n") + "\n")
        #expect(bad.exitCode == 3 && bad.stderrText.contains("\(path), line 4"), "\(bad.stderrText)")
        // A line missing: the end line's count disagrees.
        var short = whole
        short.remove(at: 2)
        let missing = try run(short.joined(separator: "\n") + "\n")
        #expect(missing.exitCode == 3 && missing.stderrText.contains("counts 6 photos, the file holds 5"), "\(missing.stderrText)")
        // No plan at all.
        try FileManager.default.removeItem(atPath: path)
        let none = try ProcessRunner.run(GalleryCLIKit.binary, ["--out", out, "--from-plan"] + ShardCLIKit.fast, timeout: 60)
        #expect(none.exitCode == 3 && none.stderrText.contains(path) && none.stderrText.contains("fetch-gallery plan"), "\(none.stderrText)")
        // Nothing was fetched by any of these runs.
        #expect(api.server.allRequests.filter { $0.path.hasPrefix("/img/") }.isEmpty)
        let photos = (try? FileManager.default.subpathsOfDirectory(atPath: out + "/photos")) ?? []
        #expect(photos.allSatisfy { !$0.hasSuffix(".jpg") && !$0.hasSuffix(".png") }, "\(photos)")
    }

    @Test func aFailedListingPageLeavesNoPlan() async throws {
        let api = try GalleryCLIKit(pages: 3, perPage: 2)
        api.server.route("/photos") { request, _ in
            (request.query ?? "").contains("page=2") ? .status(500, text: "down") :
                .status(200, headers: ["Content-Type": "application/json"],
                        text: "{\"total_pages\":3,\"photos\":[{\"id\":1,\"name\":\"a\",\"images\":[{\"size\":2048,\"url\":\"\(api.server.baseURL)/img/1.jpg\"}]}]}")
        }
        let dir = try TempDirectory()
        let result = try Self.plan(api, pages: 3, out: dir.file("g"))
        #expect(result.exitCode == 1 && result.stderrText.contains("no plan written"), "\(result.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("g/plan.jsonl")))
    }
}
