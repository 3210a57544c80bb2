import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// `run --out s3://BUCKET/PREFIX` against a real S3 store (Ceph RGW on 127.0.0.1).
@Suite(.serialized, .gatewayStarted) struct S3RunTests {
    /// A run killed after an original was stored, before the journal saying so went up: the bucket holds
    /// the original (in its list of stored files) and the journal only the photo's `seen`. A run on another
    /// machine takes the original from the bucket for the thumbnails: no download, no failure.
    @Test func anOriginalStoredBeforeTheJournalSaidSoIsTakenFromTheBucket() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 1, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "1"] + ShardCLIKit.fast
        let disk = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("disk")], timeout: 120)
        #expect(disk.exitCode == 0, "stderr: \(disk.stderrText)")
        let first = try ProcessRunner.run(GalleryCLIKit.binary, source + s3.out("g/") + ["--work-dir", dir.file("node1")],
                                          environment: s3.environment(home: dir.path), timeout: 120)
        try #require(first.exitCode == 0, "stderr: \(first.stderrText)")
        // The journal as the kill would have left it: one photo's original and thumbnails not recorded.
        try s3.mirror("g/.fetch-gallery/", into: dir.file("meta"))
        let journal = try String(contentsOfFile: dir.file("meta/journal.jsonl"), encoding: .utf8)
        let lines = journal.split(separator: "\n").map(String.init)
        func record(_ line: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        let victim = try #require(lines.lazy.map(record).first { $0["type"] as? String == "original" }?["id"] as? Int)
        let kept = lines.filter { line in
            let r = record(line)
            return !(r["id"] as? Int == victim && ["original", "thumbnail"].contains(r["type"] as? String))
        }
        #expect(kept.count < lines.count - 1)
        try (kept.joined(separator: "\n") + "\n").write(toFile: dir.file("journal.jsonl"), atomically: true, encoding: .utf8)
        try s3.put("g/.fetch-gallery/journal.jsonl", file: dir.file("journal.jsonl"))
        let requestsBefore = api.server.requests(path: api.imagePath(victim)).count

        let second = try ProcessRunner.run(GalleryCLIKit.binary, source + s3.out("g/") + ["--work-dir", dir.file("node2")],
                                           environment: s3.environment(home: dir.path), timeout: 120)
        #expect(second.exitCode == 0, "stderr: \(second.stderrText)")
        #expect(api.server.requests(path: api.imagePath(victim)).count == requestsBefore, "photo \(victim) was downloaded again")
        try s3.mirror("g/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("disk"), dir.file("bucket"))
    }

    @Test func theGalleryInTheBucketEqualsTheOneOnDisk() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 3, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "3"] + ShardCLIKit.fast
        let disk = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("disk")], timeout: 120)
        #expect(disk.exitCode == 0, "stderr: \(disk.stderrText)")
        let run = try ProcessRunner.run(GalleryCLIKit.binary, source + s3.out("g/") + ["--work-dir", dir.file("work")],
                                        environment: s3.environment(home: dir.path), timeout: 120)
        #expect(run.exitCode == 0, "stderr: \(run.stderrText)")
        #expect(run.stderrText.contains("s3://\(s3.bucket)/g/index.html"), "\(run.stderrText)")
        #expect(!run.stderrText.contains(s3.gateway.secretKey))
        try s3.mirror("g/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("disk"), dir.file("bucket"))
        // The journal is in the store, to resume from elsewhere.
        #expect(try s3.keys(under: "g/.fetch-gallery/").contains("g/.fetch-gallery/journal.jsonl"))
        // Served as a site: browsers get the right type and cache policy.
        let photo = try #require(try s3.keys(under: "g/photos/").first)
        let photoHeaders = try s3.headers(photo)
        #expect(photoHeaders["content-type"] == "image/jpeg" || photoHeaders["content-type"] == "image/png")
        #expect(photoHeaders["cache-control"]?.contains("immutable") == true, "\(photoHeaders)")
        let index = try s3.headers("g/index.html")
        #expect(index["content-type"]?.hasPrefix("text/html") == true && index["cache-control"] == "no-cache", "\(index)")
        // The work folder keeps no photo: the bucket has them.
        #expect((try? FileManager.default.subpathsOfDirectory(atPath: dir.file("work/photos")))?.filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") } == [])

        // Again, from a fresh work folder: nothing is downloaded, the gallery is the same.
        let again = try ProcessRunner.run(GalleryCLIKit.binary, source + s3.out("g/") + ["--work-dir", dir.file("work2")],
                                          environment: s3.environment(home: dir.path), timeout: 120)
        #expect(again.exitCode == 0, "stderr: \(again.stderrText)")
        #expect(again.stderrText.contains(" 0 bytes downloaded"), "\(again.stderrText)")
        try FileManager.default.removeItem(atPath: dir.file("bucket"))
        try s3.mirror("g/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("disk"), dir.file("bucket"))
    }

    @Test func wrongKeysAndMissingBucketStopBeforeAnyDownload() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 1, perPage: 2)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "1"] + ShardCLIKit.fast
        let wrong = try ProcessRunner.run(GalleryCLIKit.binary, source + s3.out("g/") + ["--work-dir", dir.file("w1")],
                                          environment: s3.environment(secret: "not-the-secret-key-0123456789", home: dir.path), timeout: 60)
        #expect(wrong.exitCode == 3, "stderr: \(wrong.stderrText)")
        #expect(wrong.stderrText.contains("access denied"), "\(wrong.stderrText)")
        #expect(!wrong.stderrText.contains("not-the-secret-key"))
        var missing = s3.out("g/")
        missing[1] = "s3://no-such-bucket-\(UInt32.random(in: 0 ... .max))/g/"
        let none = try ProcessRunner.run(GalleryCLIKit.binary, source + missing + ["--work-dir", dir.file("w2")],
                                         environment: s3.environment(home: dir.path), timeout: 60)
        #expect(none.exitCode == 3, "stderr: \(none.stderrText)")
        #expect(none.stderrText.contains("no such bucket"), "\(none.stderrText)")
        // Neither run asked the photo server for a single image.
        #expect(api.server.allRequests.filter { $0.path.hasPrefix("/img/") }.isEmpty)
    }

    @Test func aStoreAnswering503ForAWhileGetsEveryFile() async throws {
        let s3 = try S3CLIKit()
        let proxy = try S3FaultProxy(upstreamPort: s3.gateway.port)
        defer { proxy.stop() }
        let api = try GalleryCLIKit(pages: 2, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "2"] + ShardCLIKit.fast
        let disk = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("disk")], timeout: 120)
        #expect(disk.exitCode == 0, "stderr: \(disk.stderrText)")
        // Each request is tried 5 times: the check of the bucket gets 4 refusals, then the uploads 4 more.
        proxy.fail(next: 4, status: 503, code: "SlowDown")
        proxy.fail(next: 4, status: 503, code: "SlowDown", method: "PUT")
        let run = try ProcessRunner.run(GalleryCLIKit.binary, source + s3.out("g/", endpoint: proxy.endpoint)
                                            + ["--work-dir", dir.file("work")],
                                        environment: s3.environment(home: dir.path), timeout: 180)
        #expect(run.exitCode == 0, "stderr: \(run.stderrText)")
        #expect(proxy.seen.contains { $0.injected == 503 })
        try s3.mirror("g/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("disk"), dir.file("bucket"))
    }
}
