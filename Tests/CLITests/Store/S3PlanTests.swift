import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// `plan --out s3://BUCKET/PREFIX` and `run --out s3://BUCKET/PREFIX --from-plan`: the plan stored
/// whole in the bucket, shards on several nodes reading it from there.
@Suite(.serialized, .gatewayStarted) struct S3PlanTests {
    @Test func planInTheBucketThenTwoShardsAndMergeEqualOneProcessFromTheLocalPlan() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 5, perPage: 3)
        let dir = try TempDirectory()
        let planned = try ProcessRunner.run(GalleryCLIKit.binary, ["plan", "--api", api.server.baseURL, "--pages", "5"]
                                                + s3.out("p/") + ["--work-dir", dir.file("planner")],
                                            environment: s3.environment(home: dir.path), timeout: 60)
        #expect(planned.exitCode == 0, "stderr: \(planned.stderrText)")
        #expect(planned.stderrText.contains("s3://\(s3.bucket)/p/plan.jsonl (15 photos from 5 pages)"), "\(planned.stderrText)")
        // The object is the plan the work folder holds, byte for byte.
        try s3.mirror("p/", into: dir.file("stored"))
        let local = try Data(contentsOf: URL(fileURLWithPath: dir.file("planner/plan.jsonl")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("stored/plan.jsonl"))) == local)
        #expect(String(decoding: local, as: UTF8.self).split(separator: "\n").count == 17)
        let listings = api.server.requests(path: "/photos").count

        // Two shards, each on a node of its own (its own work folder), reading the plan from the bucket.
        try s3.runShards(["--from-plan"] + ShardCLIKit.fast, count: 2, prefix: "p/", work: { dir.file("node\($0)") }, home: dir.path)
        #expect(api.server.requests(path: "/photos").count == listings, "a shard read the listing")
        let merged = try s3.merge("p/", work: dir.file("merge"), home: dir.path)
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")

        // One process from the same plan, on disk.
        try FileManager.default.createDirectory(atPath: dir.file("one"), withIntermediateDirectories: true)
        try local.write(to: URL(fileURLWithPath: dir.file("one/plan.jsonl")))
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["--out", dir.file("one"), "--from-plan"] + ShardCLIKit.fast, timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        try s3.mirror("p/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("bucket"))
    }

    @Test func aMissingPlanObjectAndWrongKeysStopBeforeAnyDownload() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 1, perPage: 2)
        let dir = try TempDirectory()
        let missing = try ProcessRunner.run(GalleryCLIKit.binary, s3.out("none/") + ["--from-plan", "--work-dir", dir.file("w1")]
                                                + ShardCLIKit.fast,
                                            environment: s3.environment(home: dir.path), timeout: 60)
        #expect(missing.exitCode == 3, "stderr: \(missing.stderrText)")
        #expect(missing.stderrText.contains("plan s3://\(s3.bucket)/none/plan.jsonl is not there"), "\(missing.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("w1/plan.jsonl")))

        // A plan in the bucket, read with the wrong secret: refused before the plan or any photo is fetched.
        let planned = try ProcessRunner.run(GalleryCLIKit.binary, ["plan", "--api", api.server.baseURL, "--pages", "1"]
                                                + s3.out("q/") + ["--work-dir", dir.file("planner")],
                                            environment: s3.environment(home: dir.path), timeout: 60)
        #expect(planned.exitCode == 0, "stderr: \(planned.stderrText)")
        let wrong = try ProcessRunner.run(GalleryCLIKit.binary, s3.out("q/") + ["--from-plan", "--work-dir", dir.file("w2")]
                                              + ShardCLIKit.fast,
                                          environment: s3.environment(secret: "not-the-secret-key-0123456789", home: dir.path),
                                          timeout: 60)
        #expect(wrong.exitCode == 3, "stderr: \(wrong.stderrText)")
        #expect(wrong.stderrText.contains("access denied"), "\(wrong.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("w2/plan.jsonl")))
        // Planning into a missing bucket fails the same way, before the listing is read.
        let listings = api.server.requests(path: "/photos").count
        var nowhere = s3.out("q/")
        nowhere[1] = "s3://no-such-bucket-\(UInt32.random(in: 0 ... .max))/q/"
        let none = try ProcessRunner.run(GalleryCLIKit.binary, ["plan", "--api", api.server.baseURL, "--pages", "1"] + nowhere
                                             + ["--work-dir", dir.file("w3")],
                                         environment: s3.environment(home: dir.path), timeout: 60)
        #expect(none.exitCode == 3, "stderr: \(none.stderrText)")
        #expect(none.stderrText.contains("no such bucket"), "\(none.stderrText)")
        #expect(api.server.requests(path: "/photos").count == listings)
        #expect(api.server.allRequests.filter { $0.path.hasPrefix("/img/") }.isEmpty)
    }
}
