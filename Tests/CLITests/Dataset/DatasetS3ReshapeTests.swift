import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// `dataset --input-format webdataset|parquet-images|files --url-list s3://BUCKET/PREFIX` against the real S3
/// store (Ceph RGW on 127.0.0.1): a dataset this tool wrote to the bucket is reshaped into the same files as
/// the same dataset read from a folder; an unreachable store, a missing bucket or prefix, a prefix without a
/// finished shard and a truncated tar object are each an error naming the s3:// URL, nothing written lost.
@Suite(.serialized, .gatewayStarted) struct DatasetS3ReshapeTests {
    /// The old dataset: 60 photos, 20 a shard (3 shards), keep_ratio at 128 px.
    static let oldOptions = DatasetFixture.options.filter { $0 != "100" && $0 != "--number-sample-per-shard" }
        + ["--number-sample-per-shard", "20", "--resize-mode", "keep_ratio", "--image-size", "128", "--quiet"]
    /// The reshape: the bytes copied, 15 samples a shard, webdataset.
    static let reshape = ["--resize-mode", "no", "--number-sample-per-shard", "15", "--output-format", "webdataset", "--quiet"]

    func run(_ arguments: [String], _ s3: S3CLIKit, endpoint: String? = nil, home: String) async throws -> ProcessResult {
        await DownloadCLI.wait(try ProcessRunner(DownloadCLI.binary, ["dataset"] + arguments + ["--s3-endpoint", endpoint ?? s3.gateway.endpoint],
                                                 environment: s3.environment(home: home)), timeout: 300)
    }

    /// The old dataset in `format`, written by this tool to `s3://BUCKET/prefix` and copied from there into `folder`.
    func oldDataset(_ fixture: DatasetFixture, format: String, prefix: String, folder: String, _ s3: S3CLIKit) async throws {
        let list = try fixture.writeCSV()
        let r = try await run(["--url-list", list, "--input-format", "csv", "--output-format", format, "--output-folder", "s3://\(s3.bucket)/\(prefix)",
                               "--work-dir", fixture.work.file("work-old-\(format)")] + Self.oldOptions, s3, home: fixture.work.path)
        try #require(r.exitCode == 0, "\(r.stderrText)")
        try s3.mirror(prefix + "/", into: folder)
    }

    /// The `_stats.json` files of `folder` without their time fields, by name.
    static func stats(_ folder: String) throws -> [String: NSDictionary] {
        var all: [String: NSDictionary] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix("_stats.json") {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            guard var fields = object as? [String: Any] else { continue }
            for key in ["duration", "start_time", "end_time"] { fields[key] = nil }
            all[name] = fields as NSDictionary
        }
        return all
    }

    @Test(arguments: [("webdataset", "webdataset"), ("parquet", "parquet-images"), ("files", "files")])
    func aDatasetInABucketIsReshapedAsTheSameDatasetInAFolder(written: String, read: String) async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 60)
        let dir = fixture.work
        try await oldDataset(fixture, format: written, prefix: "old", folder: dir.file("old"), s3)
        fixture.server.stop()
        let args = ["--input-format", read] + Self.reshape
        let folder = try await DatasetCLI.run(args + ["--url-list", dir.file("old"), "--output-folder", dir.file("from-folder")])
        try #require(folder.exitCode == 0, "\(folder.stderrText)")
        // A shard without its _stats.json (a run still writing it) is passed over, and said so.
        let image = written != "files" ? nil : try FileManager.default.contentsOfDirectory(atPath: dir.file("old/00000")).sorted().first { $0.hasSuffix(".jpg") }
        let shard = written == "files" ? "00000/" + (image ?? "") : written == "parquet" ? "00000.parquet" : "00000.tar"
        try s3.put("old/00099" + shard.dropFirst(5), file: dir.file("old/" + shard))
        let bucket = try await run(args.filter { $0 != "--quiet" } + ["--url-list", "s3://\(s3.bucket)/old", "--output-folder", dir.file("from-bucket"),
                                                                      "--work-dir", dir.file("work"), "--progress", "none"], s3, home: dir.path)
        try #require(bucket.exitCode == 0, "\(bucket.stderrText)")
        #expect(bucket.stderrText.contains("warning: s3://\(s3.bucket)/old/: 1 shard(s) without their _stats.json passed over (unfinished): 00099"),
                "\(bucket.stderrText)")
        // Every tar member (name and SHA-256, sorted) and every metadata row are the folder's.
        let fromBucket = try await DatasetS3Tests.contents(dir.file("from-bucket"))
        let fromFolder = try await DatasetS3Tests.contents(dir.file("from-folder"))
        #expect(fromBucket == fromFolder)
        #expect(fromBucket.contains("00002.tar") && fromBucket.contains(".jpg"), "\(fromBucket.prefix(300))")
        let stats = try Self.stats(dir.file("from-bucket")), folderStats = try Self.stats(dir.file("from-folder"))
        #expect(stats.count >= 3 && stats == folderStats, "\(stats.keys.sorted())")
        // The shards' local copies are gone.
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: dir.file("work/reshape-input"))) ?? []
        #expect(left.isEmpty, "left in the work folder: \(left)")
    }

    /// A store behind https under a private CA (``S3PrivateCATests/front(_:authority:root:)``) is read with
    /// `--ca-certificates`, as it is written; without, the error names the certificate and nothing is written.
    @Test func aPrivateCAStoreIsReadWithCACertificates() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 20)
        let dir = fixture.work
        try await oldDataset(fixture, format: "webdataset", prefix: "old", folder: dir.file("old"), s3)
        let authority = try TestCertificateAuthority()
        let nginx = try S3PrivateCATests.front(s3, authority: authority, root: dir.path)
        let args = ["--url-list", "s3://\(s3.bucket)/old", "--input-format", "webdataset"] + Self.reshape
        let refused = try await run(args + ["--output-folder", dir.file("refused"), "--work-dir", dir.file("w1")], s3,
                                    endpoint: "https://127.0.0.1:\(nginx.port)", home: dir.path)
        #expect(refused.exitCode == 3 && refused.stderrText.contains("s3://\(s3.bucket)/old/") && refused.stderrText.contains("certificate"),
                "\(refused.exitCode): \(refused.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("refused/00000.tar")))
        let trusted = try await run(args + ["--output-folder", dir.file("trusted"), "--work-dir", dir.file("w2"),
                                            "--ca-certificates", authority.certificatePath], s3,
                                    endpoint: "https://127.0.0.1:\(nginx.port)", home: dir.path)
        #expect(trusted.exitCode == 0, "\(trusted.stderrText)")
        #expect(FileManager.default.fileExists(atPath: dir.file("trusted/00000_stats.json")))
    }

    /// An output folder holding an earlier dataset, which `--incremental-mode overwrite` would clear: an input
    /// that cannot be read must leave it as it is.
    func earlierOutput(_ dir: TempDirectory) throws -> String {
        let out = dir.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = try dir.write(Array("{}".utf8), to: "out/00000_stats.json")
        return out
    }

    /// Runs the reshape of `url` into `out` (overwrite), expects exit 3 and `reason` after the URL, and the
    /// earlier output still there.
    func expectFailure(_ url: String, _ reason: String, _ s3: S3CLIKit, dir: TempDirectory, endpoint: String? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let out = try earlierOutput(dir)
        let r = try await run(["--url-list", url, "--input-format", "webdataset", "--output-folder", out, "--incremental-mode", "overwrite",
                               "--work-dir", dir.file("work")] + Self.reshape, s3, endpoint: endpoint, home: dir.path)
        #expect(r.exitCode == 3, "\(r.exitCode): \(r.stderrText)", sourceLocation: sourceLocation)
        #expect(r.stderrText.contains(url) && r.stderrText.contains(reason), "\(r.stderrText)", sourceLocation: sourceLocation)
        #expect(FileManager.default.fileExists(atPath: out + "/00000_stats.json"), "the earlier output was cleared", sourceLocation: sourceLocation)
    }

    @Test func anUnreachableStoreIsAnErrorNamingTheURL() async throws {
        let s3 = try S3CLIKit()
        let dir = try TempDirectory()
        // Port 1 of 127.0.0.1: nothing listens there, the connection is refused.
        try await expectFailure("s3://\(s3.bucket)/old/", "cannot list it", s3, dir: dir, endpoint: "http://127.0.0.1:1")
    }

    @Test func aMissingBucketOrPrefixIsAnErrorNamingTheURL() async throws {
        let s3 = try S3CLIKit()
        let dir = try TempDirectory()
        try await expectFailure("s3://no-such-bucket-\(UInt32.random(in: 0 ... .max))/old/", "no such bucket", s3, dir: dir)
        try await expectFailure("s3://\(s3.bucket)/nothing-here/", "nothing is stored under this prefix", s3, dir: dir)
    }

    @Test func aPrefixWithoutAFinishedShardIsAnErrorNamingTheURL() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 60)
        let dir = fixture.work
        try await oldDataset(fixture, format: "webdataset", prefix: "old", folder: dir.file("old"), s3)
        // The tars of a run that never finished: no NNNNN_stats.json beside them.
        for name in ["00000.tar", "00001.tar"] { try s3.put("unfinished/" + name, file: dir.file("old/" + name)) }
        try await expectFailure("s3://\(s3.bucket)/unfinished/", "no finished shard: 2 .tar shard(s)", s3, dir: dir)
    }

    /// A tar object cut mid-member: the error names its s3:// URL, and the new shards finished before it stay.
    @Test func aTruncatedTarObjectIsAnErrorNamingItAndTheShardsWrittenStay() async throws {
        let s3 = try S3CLIKit()
        let fixture = try DatasetFixture(count: 60)
        let dir = fixture.work
        try await oldDataset(fixture, format: "webdataset", prefix: "old", folder: dir.file("old"), s3)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("old/00002.tar"))))
        let cut = try dir.write(Array(bytes.prefix(512 * 3 + 100)), to: "cut.tar")
        try s3.put("old/00002.tar", file: cut)
        let out = dir.file("new")
        let r = try await run(["--url-list", "s3://\(s3.bucket)/old", "--input-format", "webdataset", "--output-folder", out,
                               "--work-dir", dir.file("work")] + Self.reshape.map { $0 == "15" ? "10" : $0 }, s3, home: dir.path)
        #expect(r.exitCode == 3 && r.stderrText.contains("s3://\(s3.bucket)/old/00002.tar") && r.stderrText.contains("cut short"),
                "\(r.exitCode): \(r.stderrText)")
        #expect(!r.stderrText.contains(dir.file("work")), "the message names the local copy: \(r.stderrText)")
        // The two whole old shards hold 40 samples or fewer (failures left out): the new shards of 10 made from them stay.
        let old = try await ReshapeRead.read(dir.file("old"), format: "webdataset")
        let whole = old.keys.filter { old.string($0, "shard") != "00002" }.count / 10
        let written = try await ReshapeRead.read(out, format: "webdataset")
        #expect(whole >= 2 && (0..<whole).allSatisfy { written.shards[String(format: "%05d", $0)] == 10 }, "\(written.shards)")
        for i in 0..<whole { #expect(FileManager.default.fileExists(atPath: out + String(format: "/%05d_stats.json", i)), "shard \(i) has no stats") }
    }
}
