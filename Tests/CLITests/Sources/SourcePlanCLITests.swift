import Foundation
import GalleryTestSupport
import Testing

/// A cursor listing (Wikimedia Commons' `continue` tokens) cannot be split by page, so it is read once by
/// `fetch-gallery plan --source ...` and the shards take the plan's lines: end to end against the local
/// MediaWiki API, compared with one process reading the same category.
@Suite struct SourcePlanCLITests {
    @Test func commonsPlanThenTwoShardsAndMergeEqualOneProcess() async throws {
        let files = try ServicePhoto.make(5)
        let commons = try CommonsServer(files: files, splitImageinfo: true)
        let dir = try TempDirectory()
        let source = ["--source", "commons", "--category", "Featured pictures of landscapes", "--api", commons.endpoint,
                      "--per-page", "2", "--pages", "10"]
        let one = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("one")] + ShardCLIKit.fast, timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        let listingsAfterOne = commons.server.requests(path: "/w/api.php").count

        let sharded = dir.file("sharded")
        let planned = try ProcessRunner.run(GalleryCLIKit.binary, ["plan"] + source + ["--out", sharded], timeout: 60)
        #expect(planned.exitCode == 0, "stderr: \(planned.stderrText)")
        let lines = try String(contentsOfFile: sharded + "/plan.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 7, "header, 5 photos, end: \(lines.count)")
        #expect(lines.dropFirst().first?.contains("\"credit\"") == true, "the plan keeps each photo's credit")
        // The plan read the same batches as the run (continue + iicontinue answers) and no file.
        #expect(commons.server.requests(path: "/w/api.php").count == 2 * listingsAfterOne)

        let shards = try ShardCLIKit.runShards(2, ["--from-plan"], out: sharded)
        for (k, result) in shards.enumerated() { #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)") }
        #expect(commons.server.requests(path: "/w/api.php").count == 2 * listingsAfterOne, "shards read no listing")
        let merged = try ShardCLIKit.merge(sharded)
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        try ShardCLIKit.expectSameGallery(dir.file("one"), sharded)
        let credits = try SourceCLIKit.photosBySourceID(sharded).values.compactMap { $0["credit"] as? [String: String] }
        #expect(credits.count == 5 && credits.allSatisfy { $0["licence"] != nil && $0["author"] != nil })
    }

    @Test func shardingAServiceWithoutAPlanSaysHow() async throws {
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["--source", "commons", "--category", "Landscapes",
                                                                  "--shard", "0/2", "--out", "/nonexistent/g"], timeout: 30)
        #expect(result.exitCode == 64 || result.exitCode == 2, "usage error: \(result.exitCode)")
        #expect(result.stderrText.contains("fetch-gallery plan --source commons"), "\(result.stderrText)")
    }

    @Test func unsplashCannotBePlannedAndSaysWhy() async throws {
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["plan", "--source", "unsplash", "--out", "/nonexistent/g"],
                                           environment: ["UNSPLASH_ACCESS_KEY": "k"], timeout: 30)
        #expect(result.exitCode == 64 || result.exitCode == 2, "usage error: \(result.exitCode)")
        #expect(result.stderrText.contains("cannot be planned"), "\(result.stderrText)")
    }
}
