import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// `dataset --output-folder s3://BUCKET/PREFIX` against a real S3 store (Ceph RGW on 127.0.0.1): the objects,
/// read back by pyarrow and webdataset, are the dataset the same run writes to a folder; a shard's tar goes
/// up in parts as it is written; a shard whose file cannot be stored has no `_stats.json` and is redone.
@Suite(.serialized, .gatewayStarted) struct DatasetS3Tests {
    /// PNGs of 512 px make each 100-row tar ~25-40 MB: several 8 MiB parts.
    static let bigShards = ["--output-format", "webdataset", "--encode-format", "png", "--encode-quality", "1", "--image-size", "512", "--quiet"]
        + DatasetFixture.options

    func run(_ arguments: [String], _ s3: S3CLIKit, endpoint: String? = nil, home: String) async throws -> ProcessResult {
        await DownloadCLI.wait(try ProcessRunner(DownloadCLI.binary, ["dataset"] + arguments
                                                   + ["--s3-endpoint", endpoint ?? s3.gateway.endpoint],
                                                 environment: s3.environment(home: home)), timeout: 300)
    }

    /// Every member of every tar (name and SHA-256 of its bytes, sorted) and every metadata row, as Python's
    /// tarfile and pyarrow read them.
    static func contents(_ folder: String) async throws -> String {
        let script = #"""
        import glob, hashlib, json, os, sys, tarfile
        import pyarrow.parquet as pq
        out = {}
        for p in sorted(glob.glob(sys.argv[1] + "/*.tar")):
            with tarfile.open(p) as tf:
                out[os.path.basename(p)] = sorted([m.name, hashlib.sha256(tf.extractfile(m).read()).hexdigest()] for m in tf.getmembers())
        for p in sorted(glob.glob(sys.argv[1] + "/*.parquet")):
            out[os.path.basename(p)] = sorted(json.dumps(r, sort_keys=True) for r in pq.read_table(p).to_pylist())
        print(json.dumps(out, sort_keys=True))
        """#
        let r = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", script, folder]), timeout: 120)
        guard r.exitCode == 0 else { throw DatasetCLIError.reader(r.stderrText) }
        return r.stdoutText
    }

    @Test func theDatasetInTheBucketIsTheOneInTheFolder() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 200)
        let list = try fixture.writeCSV()
        let dir = fixture.work
        let args = ["--url-list", list, "--input-format", "csv"] + Self.bigShards
        let disk = try await DatasetCLI.run(args + ["--output-folder", dir.file("disk")], timeout: 300)
        try #require(disk.exitCode == 0, "\(disk.stderrText)")
        let photos = { fixture.server.allRequests.filter { $0.path.hasPrefix("/p/") }.count }
        let firstRun = photos()
        let bucket = try await run(args + ["--output-folder", "s3://\(s3.bucket)/ds", "--work-dir", dir.file("work")], s3, home: dir.path)
        try #require(bucket.exitCode == 0, "\(bucket.stderrText)")
        let keys = try s3.keys(under: "ds/").sorted()
        #expect(keys == ["00000.idx", "00000.parquet", "00000.tar", "00000_stats.json", "00001.idx", "00001.parquet", "00001.tar",
                         "00001_stats.json", "_info.json", "shardindex.json", "sizes.json"].map { "ds/" + $0 })
        // The tars went up in parts as they were written (a multipart object's ETag ends in -N), none left pending.
        let etag = try s3.headers("ds/00000.tar")["etag"] ?? ""
        #expect(etag.contains("-"), "ETag \(etag): not a multipart upload")
        #expect(try s3.pendingUploads() == 0)
        #expect(((try? FileManager.default.subpathsOfDirectory(atPath: dir.file("work/dataset-spool"))) ?? ["?"]).filter { !$0.hasSuffix("/") && $0.contains(".") }.isEmpty)
        // Read back from the bucket by webdataset and pyarrow: the rows, statuses and members are the folder's,
        // every image byte-identical.
        try s3.mirror("ds/", into: dir.file("bucket"))
        let read = try await DatasetCLI.read(dir.file("bucket"))
        #expect((read["wds"] as? [Any])?.count == 150, "webdataset read \((read["wds"] as? [Any])?.count ?? -1) samples")
        #expect(DatasetCLI.rows(read).count == 200)
        let fromBucket = try await Self.contents(dir.file("bucket"))
        let fromDisk = try await Self.contents(dir.file("disk"))
        #expect(fromBucket == fromDisk)
        #expect(fromBucket.contains("00001.tar"))
        // The trainers' indexes, taken from the tars as they went up, read as their readers do.
        try await DatasetShardIndexTests().check(dir.file("bucket"), shards: 2, "in the bucket")

        // Run again: every shard is done in the bucket, nothing is fetched.
        let again = try await run(args + ["--output-folder", "s3://\(s3.bucket)/ds", "--work-dir", dir.file("work2")], s3, home: dir.path)
        #expect(again.exitCode == 0, "\(again.stderrText)")
        #expect(again.stderrText.isEmpty || !again.stderrText.contains("error"), "\(again.stderrText)")
        #expect(photos() == 2 * firstRun, "fetched \(photos() - 2 * firstRun) photos more than the first run")
        // Its indexes still list the shards the first run wrote (from the bucket's shardindex.json).
        try s3.mirror("ds/", into: dir.file("bucket-again"))
        try await DatasetShardIndexTests().check(dir.file("bucket-again"), shards: 2, "in the bucket after a run with nothing to do")
    }

    /// A run killed while a tar goes up in parts leaves that multipart upload unfinished in the bucket; the
    /// next run aborts it when it writes the shard again (and says so), so no parts stay behind.
    @Test func aKilledRunsUnfinishedUploadIsAbortedByTheNextRun() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 200)
        let list = try fixture.writeCSV()
        let dir = fixture.work
        let args = ["--url-list", list, "--input-format", "csv", "--output-folder", "s3://\(s3.bucket)/ds"] + Self.bigShards
        let runner = try ProcessRunner(DownloadCLI.binary, ["dataset"] + args + ["--work-dir", dir.file("work"),
                                                                                  "--s3-endpoint", s3.gateway.endpoint],
                                       environment: s3.environment(home: dir.path))
        // Polled every 50 ms until a tar's multipart upload has begun (up to 120 s), then killed.
        var pending = 0
        for _ in 0..<2400 where pending == 0 {
            usleep(50_000)
            pending = (try? s3.pendingUploads()) ?? 0
        }
        runner.send(SIGKILL)
        _ = await DownloadCLI.wait(runner, timeout: 30)
        try #require(pending > 0, "no multipart upload began before the run ended")
        try #require(try s3.pendingUploads() > 0)

        let again = try await run(args.filter { $0 != "--quiet" } + ["--work-dir", dir.file("work")], s3, home: dir.path)
        #expect(again.exitCode == 0, "\(again.stderrText)")
        #expect(try s3.pendingUploads() == 0, "an unfinished upload of the killed run is still in the bucket")
        #expect(again.stderrText.contains("unfinished upload"), "\(again.stderrText)")
        try s3.mirror("ds/", into: dir.file("bucket"))
        #expect(DatasetCLI.rows(try await DatasetCLI.read(dir.file("bucket"))).count == 200)
    }

    @Test func aShardWhoseTarCannotBeStoredHasNoStatsAndIsRedone() async throws {
        let s3 = try S3CLIKit()
        let proxy = try S3FaultProxy(upstreamPort: s3.gateway.port)
        defer { proxy.stop() }
        let fixture = try DatasetFixture(count: 200)
        let list = try fixture.writeCSV()
        let dir = fixture.work
        let args = ["--url-list", list, "--input-format", "csv", "--output-folder", "s3://\(s3.bucket)/ds"] + Self.bigShards
        // The second part of shard 1's tar is refused (403 is not retried).
        proxy.fail(next: 1, status: 403, code: "AccessDenied", method: "PUT", targetContains: "00001.tar?partNumber=2")
        let first = try await run(args + ["--work-dir", dir.file("work")], s3, endpoint: proxy.endpoint, home: dir.path)
        #expect(first.exitCode == 1, "\(first.stderrText)")
        #expect(first.stderrText.contains("00001.tar"), "\(first.stderrText)")
        #expect(proxy.seen.contains { $0.injected == 403 })
        let keys = try s3.keys(under: "ds/").sorted()
        #expect(keys.contains("ds/00000_stats.json") && keys.contains("ds/00000.tar"), "\(keys)")
        #expect(!keys.contains("ds/00001_stats.json") && !keys.contains("ds/00001.tar"), "\(keys)")
        #expect(try s3.pendingUploads() == 0, "the refused upload was not aborted")
        // The trainers' indexes list only the shard the bucket holds whole.
        try s3.mirror("ds/", into: dir.file("bucket-first"))
        let sizes = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("bucket-first/sizes.json"))))
        #expect((sizes as? [String: Int]).map { Array($0.keys) } == ["00000.tar"], "sizes.json \(sizes)")

        // Run again: shard 0 is done, shard 1 is redone; the dataset is whole.
        let photos = { fixture.server.allRequests.filter { $0.path.hasPrefix("/p/") }.count }
        let before = photos()
        let again = try await run(args + ["--work-dir", dir.file("work")], s3, home: dir.path)
        #expect(again.exitCode == 0, "\(again.stderrText)")
        #expect(photos() - before == 70, "fetched \(photos() - before) photos again, shard 1 has 70")
        try s3.mirror("ds/", into: dir.file("bucket"))
        let read = try await DatasetCLI.read(dir.file("bucket"))
        #expect(DatasetCLI.rows(read).count == 200)
        #expect((read["wds"] as? [Any])?.count == 150)
        try await DatasetShardIndexTests().check(dir.file("bucket"), shards: 2, "after the shard was redone")
    }

    /// `--shard 0/2` then `--shard 1/2` into one prefix, in either order: the second reads the first's
    /// shardindex.json from the bucket, and the indexes it leaves list every shard.
    @Test func theProcessesOfAShardedRunOneAfterTheOtherLeaveIndexesOfEveryShard() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 450)
        let list = try fixture.writeCSV()
        let dir = fixture.work
        for order in [["0/2", "1/2"], ["1/2", "0/2"]] {
            let prefix = "sharded-\(order[0].prefix(1))/"
            for (i, shard) in order.enumerated() {
                let r = try await run(["--url-list", list, "--input-format", "csv", "--output-format", "webdataset", "--quiet",
                                       "--output-folder", "s3://\(s3.bucket)/\(prefix)", "--shard", shard,
                                       "--work-dir", dir.file("work-\(prefix.dropLast())-\(i)")] + DatasetFixture.options, s3, home: dir.path)
                try #require(r.exitCode == 0, "\(shard): \(r.stderrText)")
            }
            try s3.mirror(prefix, into: dir.file(String(prefix.dropLast())))
            try await DatasetShardIndexTests().check(dir.file(String(prefix.dropLast())), shards: 5, "--shard \(order[0]) then \(order[1]) into a bucket")
        }
    }

    /// A parquet dataset in a bucket: `sizes.json` and `_info.json` count each shard's images, from this run's
    /// shards and, on a run with nothing left to do, from the bucket's earlier `sizes.json`.
    @Test func aParquetDatasetInABucketGetsItsCounts() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 250)
        let list = try fixture.writeCSV()
        let dir = fixture.work
        let args = ["--url-list", list, "--input-format", "csv", "--output-format", "parquet", "--quiet",
                    "--output-folder", "s3://\(s3.bucket)/pq"] + DatasetFixture.options
        for (i, label) in ["first run", "a run with nothing to do"].enumerated() {
            let r = try await run(args + ["--work-dir", dir.file("work\(i)")], s3, home: dir.path)
            try #require(r.exitCode == 0, "\(label): \(r.stderrText)")
            try s3.mirror("pq/", into: dir.file("bucket\(i)"))
            let read = await DownloadCLI.wait(try ProcessRunner("python3", ["-c", DatasetShardIndexTests.counts, dir.file("bucket\(i)"), "parquet"]),
                                              timeout: 120)
            try #require(read.exitCode == 0, "\(label): \(read.stderrText)")
            let got = try #require(try JSONSerialization.jsonObject(with: Data(read.stdoutText.utf8)) as? [String: Any])
            let actual = got["actual"] as? [String: Int] ?? [:]
            #expect(actual.count == 3 && got["sizes"] as? [String: Int] == actual, "\(label): sizes.json \(got["sizes"] ?? "") against \(actual)")
            let timm = got["timm"] as? [Any] ?? []
            #expect(timm.count == 3 && timm[0] as? Int == actual.values.reduce(0, +), "\(label): _info.json \(timm)")
        }
    }
}
