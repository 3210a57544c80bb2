import Foundation
import GallerySync
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// Shards writing into one bucket, `merge s3://...` (again, with fewer index pages), and a run killed
/// mid-upload and resumed elsewhere.
@Suite(.serialized, .gatewayStarted) struct S3ShardAndResumeTests {
    @Test func fourShardsAndMergeIntoTheBucketEqualOneProcess() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 7, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "7"] + ShardCLIKit.fast
        let one = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("one")], timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        // Four shards at once, each with a work folder of its own (as on four machines).
        try s3.runShards(source, count: 4, prefix: "s/", work: { dir.file("w\($0)") }, home: dir.path)
        #expect(try !s3.keys(under: "s/").contains("s/index.html"))
        let merged = try s3.merge("s/", work: dir.file("merge"), home: dir.path)
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        try s3.mirror("s/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("bucket"))
        // The merge read the parts, not the photos: nothing under photos/ or thumbs/ came to its work folder.
        #expect(!FileManager.default.fileExists(atPath: dir.file("merge/photos")))
    }

    /// `merge s3://...` run again after the index got fewer pages: what the first merge wrote and the
    /// second did not is gone from the bucket, from a fresh work folder (another node).
    @Test func aSecondMergeWithFewerIndexPagesLeavesNoStalePageInTheBucket() async throws {
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: 7, perPage: 3)
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "7"] + ShardCLIKit.fast
        let one = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("one"), "--photos-per-page", "5"], timeout: 120)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        try s3.runShards(source, count: 4, prefix: "s/", work: { dir.file("w\($0)") }, home: dir.path)
        func merge(perPage: Int, work: String) throws -> ProcessResult {
            try s3.merge("s/", work: dir.file(work), home: dir.path, ["--photos-per-page", String(perPage)])
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

    @Test func aRunKilledMidUploadResumesFromTheStoreAndSendsNoPhotoTwice() async throws {
        let s3 = try S3CLIKit()
        let proxy = try S3FaultProxy(upstreamPort: s3.gateway.port)
        defer { proxy.stop() }
        // 72 photos of 100-250 KB: the bytes of a few uploads cut by the kill are a few per cent of the gallery.
        let files = try FileManager.default.contentsOfDirectory(atPath: Corpus.root + "/exif-orientation")
            .filter { $0.hasSuffix(".jpg") }.sorted().map { "exif-orientation/" + $0 }
        let api = try GalleryCLIKit(pages: 6, perPage: 12, corpusFiles: files)
        // In the run that is killed, the first 24 photos asked for come at once and the rest stall 4 s
        // each, so the kill finds the run in the middle of its photos however slowly this machine polls
        // the bucket. The run to disk before it and the run after the kill get every photo at once.
        let killedRunOrder = Locked<Int?>(nil)
        for id in api.allIDs {
            let bytes = try Corpus.bytes(api.files[id]!)
            api.server.route(api.imagePath(id)) { _, _ in
                let order = killedRunOrder.withLock { count -> Int? in count = count.map { $0 + 1 }; return count }
                let response = FaultServer.Response.file(bytes, etag: "\"\(id)\"", contentType: "image/jpeg")
                return (order ?? 0) <= 24 ? response : response.stall(afterBodyBytes: 1000, seconds: 4)
            }
        }
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "6", "--workers", "2", "--sizes", "64", "--progress", "none",
                      "--jobs", "2"]
        let disk = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("disk")], timeout: 180)
        #expect(disk.exitCode == 0, "stderr: \(disk.stderrText)")
        let store = s3.out("g/", endpoint: proxy.endpoint) + ["--s3-uploads", "2", "--journal-upload-interval", "0.5"]
        killedRunOrder.withLock { $0 = 0 }
        let first = try ProcessRunner(GalleryCLIKit.binary, source + store + ["--work-dir", dir.file("node1")],
                                      environment: s3.environment(home: dir.path))
        // Killed once some originals are in the bucket and the journal has been uploaded.
        let started = try await GalleryCLIKit.waitFor(120) {
            ((try? s3.keys(under: "g/photos/").count) ?? 0) >= 20
                && ((try? s3.keys(under: "g/.fetch-gallery/").contains("g/.fetch-gallery/journal.jsonl")) ?? false)
        }
        first.send(SIGKILL)
        let killed = first.wait(timeout: 30)
        killedRunOrder.withLock { $0 = nil }
        #expect(started && killed.exitCode != 0, "the run ended before the kill: \(killed.stderrText)")
        let storedBeforeResume = try s3.keys(under: "g/photos/").count
        #expect(storedBeforeResume < 72, "every photo was uploaded before the kill")

        // Another node, a fresh work folder: the journal comes from the store.
        let second = try ProcessRunner.run(GalleryCLIKit.binary, source + store + ["--work-dir", dir.file("node2")],
                                           environment: s3.environment(home: dir.path), timeout: 240)
        #expect(second.exitCode == 0, "stderr: \(second.stderrText)")
        try s3.mirror("g/", into: dir.file("bucket"))
        try ShardCLIKit.expectSameGallery(dir.file("disk"), dir.file("bucket"))
        #expect(try s3.pendingUploads() == 0)

        // Bytes sent to the store by both runs: the gallery's own bytes, plus the kill's cut uploads,
        // within 5 %. The PUTs' request heads are taken out (each at most the longest bodiless request's).
        let galleryBytes = try ShardCLIKit.galleryFiles(dir.file("bucket")).reduce(0) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: dir.file("bucket") + "/" + path)[.size] as? Int) ?? 0)
        }
        let seen = proxy.seen.filter { $0.injected == nil }
        let head = seen.filter { $0.method != "PUT" && $0.method != "POST" }.map(\.bytesIn).max() ?? 0
        let puts = seen.filter { $0.method == "PUT" }
        let sent = puts.reduce(0) { $0 + max(0, $1.bytesIn - head) }
        // The journal and the list of stored files are uploaded again at each checkpoint: not the gallery.
        let bookkeeping = puts.filter { $0.target.contains("/.fetch-gallery/") }.reduce(0) { $0 + max(0, $1.bytesIn - head) }
        #expect(Double(sent - bookkeeping) <= 1.05 * Double(galleryBytes),
                "sent \(sent - bookkeeping) bytes (\(bookkeeping) more of journal) for a gallery of \(galleryBytes)")
    }
}
