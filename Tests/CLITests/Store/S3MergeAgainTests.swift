import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// `merge s3://...` run again after the index got fewer pages: what the first merge wrote and the
/// second did not is gone from the bucket, from a fresh work folder (another node).
@Suite(.serialized, .gatewayStarted) struct S3MergeAgainTests {
    @Test func aSecondMergeWithFewerIndexPagesLeavesNoStalePageInTheBucket() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 7, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "7"] + ShardCLIKit.fast
        let one = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("one"), "--photos-per-page", "5"], timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        let shards = try (0..<4).map { k in
            try ProcessRunner(GalleryCLIKit.binary, source + s3.out("s/") + ["--shard", "\(k)/4", "--work-dir", dir.file("w\(k)")],
                              environment: s3.environment(home: dir.path))
        }
        for (k, shard) in shards.enumerated() {
            let result = shard.wait(timeout: 180)
            #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)")
        }
        func merge(perPage: Int, work: String) throws -> ProcessResult {
            try ProcessRunner.run(GalleryCLIKit.binary, ["merge", "s3://\(s3.bucket)/s/", "--s3-endpoint", s3.gateway.endpoint,
                                                         "--work-dir", dir.file(work), "--photos-per-page", String(perPage)],
                                  environment: s3.environment(home: dir.path), timeout: 120)
        }
        // 21 photos, 2 a page: index.html to index-11.html.
        let first = try merge(perPage: 2, work: "merge1")
        #expect(first.exitCode == 0, "stderr: \(first.stderrText)")
        let before = try s3.keys(under: "s/")
        #expect(before.contains("s/index-11.html") && before.contains("s/shards/merge.keys"))

        // 5 a page, on another node: index-6.html to index-11.html are stale.
        let second = try merge(perPage: 5, work: "merge2")
        #expect(second.exitCode == 0, "stderr: \(second.stderrText)")
        let after = try s3.keys(under: "s/")
        #expect(after.filter { $0.hasPrefix("s/index") }.sorted() == ["s/index-2.html", "s/index-3.html", "s/index-4.html",
                                                                     "s/index-5.html", "s/index.html"])
        // Everything else is as one process writes it with 5 a page; the photos were not touched.
        try s3.mirror("s/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("bucket"))
        #expect(Set(after.filter { $0.hasPrefix("s/photos/") || $0.hasPrefix("s/thumbs/") })
                == Set(before.filter { $0.hasPrefix("s/photos/") || $0.hasPrefix("s/thumbs/") }))
    }
}
