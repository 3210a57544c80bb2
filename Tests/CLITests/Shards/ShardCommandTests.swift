import Foundation
import GalleryTestSupport
import Testing

/// `run --shard K/N` and `merge`: shards of one job, run at once into one folder, then merged,
/// give the gallery one process gives.
@Suite struct ShardCommandTests {
    @Test func fourShardsAndMergeEqualOneProcess() async throws {
        let api = try GalleryCLIKit(pages: 7, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "7"]
        let one = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("one")] + ShardCLIKit.fast, timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        let shards = try ShardCLIKit.runShards(4, source, out: dir.file("sharded"))
        for (k, result) in shards.enumerated() { #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)") }
        // No shard wrote the gallery's own files: that is the merge's job.
        #expect(!FileManager.default.fileExists(atPath: dir.file("sharded/index.html")))
        let merged = try ShardCLIKit.merge(dir.file("sharded"))
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("sharded"))

        // Each shard read only its own pages: shard 1 of 4 pages 2 and 6.
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("sharded/shards/1-of-4.summary.json")))) as? [String: Any]
        #expect(summary?["pages_fetched"] as? Int == 2 && summary?["photos"] as? Int == 6 && summary?["photos_ok"] as? Int == 6)

        // Merging again changes nothing.
        let index = try Data(contentsOf: URL(fileURLWithPath: dir.file("sharded/index.html")))
        let again = try ShardCLIKit.merge(dir.file("sharded"))
        #expect(again.exitCode == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("sharded/index.html"))) == index)
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("sharded"))
    }

    @Test func urlListShardsTakeLinesModuloN() async throws {
        let api = try GalleryCLIKit(pages: 1, perPage: 8)
        let dir = try TempDirectory()
        var lines = api.allIDs.map { api.server.baseURL + api.imagePath($0) }
        lines.insert("# a comment", at: 2)
        lines.insert("ftp://example.com/x.jpg", at: 5)
        lines.append(lines[0])  // the same URL again, on another shard's line: written once
        let list = try dir.write(Array(lines.joined(separator: "\n").utf8), to: "urls.txt")
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["--urls", list, "--out", dir.file("one")] + ShardCLIKit.fast, timeout: 120)
        let shards = try ShardCLIKit.runShards(3, ["--urls", list], out: dir.file("sharded"))
        // The rejected line is an error of the run and of the one shard that owns it (line 5: shard 2 of 3).
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        for (k, result) in shards.enumerated() { #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)") }
        let merged = try ShardCLIKit.merge(dir.file("sharded"))
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        #expect(merged.stderrText.contains("1 duplicates left out"), "\(merged.stderrText)")
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("sharded"))
    }

    @Test func mergeNamesMissingAndUnfinishedShards() async throws {
        let api = try GalleryCLIKit(pages: 3, perPage: 2)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let first = try ProcessRunner.run(GalleryCLIKit.binary,
            ["--api", api.server.baseURL, "--pages", "3", "--out", out, "--shard", "0/3"] + ShardCLIKit.fast, timeout: 60)
        #expect(first.exitCode == 0, "stderr: \(first.stderrText)")
        // Shard 1 began and was killed before its end: its journal exists, its summary does not.
        try FileManager.default.createDirectory(atPath: out + "/.fetch-gallery/shards/1-of-3", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: out + "/.fetch-gallery/shards/1-of-3/journal.jsonl", contents: Data())
        let merged = try ShardCLIKit.merge(out)
        #expect(merged.exitCode == 1)
        #expect(merged.stderrText.contains("never started") && merged.stderrText.contains("2/3"), "\(merged.stderrText)")
        #expect(merged.stderrText.contains("unfinished") && merged.stderrText.contains("1/3"), "\(merged.stderrText)")
        // What is done is in the gallery already.
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 2)

        let empty = try ShardCLIKit.merge(dir.file("nothing"))
        #expect(empty.exitCode == 2 && empty.stderrText.contains("no shard parts"), "\(empty.stderrText)")
    }

    @Test func shardFromSlurmAndKubernetesEnvironment() async throws {
        let api = try GalleryCLIKit(pages: 2, perPage: 2)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--api", api.server.baseURL, "--pages", "2", "--out", out, "--shard-from-env"] + ShardCLIKit.fast
        let slurm = ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "0",
                     "SLURM_ARRAY_TASK_MAX": "1", "SLURM_ARRAY_TASK_STEP": "1"]
        let task = try ProcessRunner.run(GalleryCLIKit.binary, args, environment: slurm, timeout: 60)
        #expect(task.exitCode == 0, "stderr: \(task.stderrText)")
        #expect(FileManager.default.fileExists(atPath: out + "/shards/1-of-2.summary.json"))

        var shifted = slurm
        shifted["SLURM_ARRAY_TASK_MIN"] = "1"
        shifted["SLURM_ARRAY_TASK_MAX"] = "2"
        let refused = try ProcessRunner.run(GalleryCLIKit.binary, args, environment: shifted, timeout: 60)
        #expect(refused.exitCode == 2)
        #expect(refused.stderrText.contains("SLURM_ARRAY_TASK_MIN=1") && refused.stderrText.contains("--array=0-1"), "\(refused.stderrText)")

        let kubernetes = ["JOB_COMPLETION_INDEX": "0"]
        let noCount = try ProcessRunner.run(GalleryCLIKit.binary, args, environment: kubernetes, timeout: 60)
        #expect(noCount.exitCode == 2 && noCount.stderrText.contains("--shards N"), "\(noCount.stderrText)")
        let indexed = try ProcessRunner.run(GalleryCLIKit.binary, args + ["--shards", "2"], environment: kubernetes, timeout: 60)
        #expect(indexed.exitCode == 0, "stderr: \(indexed.stderrText)")
        let merged = try ShardCLIKit.merge(out)
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 4)
    }

    @Test func failedPhotosOfAShardAreTriedAgainOnItsNextRun() async throws {
        let api = try GalleryCLIKit(pages: 2, perPage: 2)
        let broken = api.pages[1][0]
        let bytes = try Corpus.bytes(api.files[broken]!)
        api.server.route(api.imagePath(broken)) { _, _ in .status(404, text: "gone") }
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--api", api.server.baseURL, "--pages", "2", "--out", out, "--shard", "1/2"] + ShardCLIKit.fast
        let first = try ProcessRunner.run(GalleryCLIKit.binary, args, timeout: 60)
        #expect(first.exitCode == 1)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/shards/1-of-2.summary.json"))) as? [String: Any]
        #expect((summary?["failures_by_reason"] as? [String: Int]) == ["download: HTTP 404": 1], "\(String(describing: summary))")
        api.server.route(api.imagePath(broken)) { _, _ in .file(bytes, etag: "\"\(broken)\"", contentType: "image/jpeg") }
        let second = try ProcessRunner.run(GalleryCLIKit.binary, args, timeout: 60)
        #expect(second.exitCode == 0, "stderr: \(second.stderrText)")
        let after = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/shards/1-of-2.summary.json"))) as? [String: Any]
        #expect(after?["photos_ok"] as? Int == 2 && after?["bytes_downloaded"] as? Int == bytes.count, "\(String(describing: after))")
    }
}
