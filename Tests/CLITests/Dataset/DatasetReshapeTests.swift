import Foundation
import GalleryTestSupport
import Testing

/// `--input-format webdataset|parquet-images|files`: a dataset img2dataset 1.47 (or this tool) wrote is made
/// again, resharded, resized or re-formatted, from the image bytes its shards hold: no connection is made to
/// the server the URLs point at, keys, captions and metadata are carried over, and bytes are copied when the
/// image is left as it is.
@Suite(.serialized) struct DatasetReshapeTests {
    /// The columns that describe the original download, which the new dataset keeps.
    static let carried = ["url", "caption", "n", "tag", "original_width", "original_height", "sha256", "exif"]

    @Test func img2datasetsWebdatasetIsReshardedWithItsBytesAndNoRequest() async throws {
        let fixture = try DatasetFixture(count: 60)
        let old = fixture.work.file("old")
        try await ReshapeRead.img2dataset(fixture, format: "webdataset", folder: old)
        let connections = fixture.server.connectionCount
        let new = fixture.work.file("new")
        let r = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "no",
                                          "--number-sample-per-shard", "25", "--output-format", "webdataset", "--output-folder", new, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        #expect(fixture.server.connectionCount == connections, "the reshape connected to the server the URLs name")
        let before = try await ReshapeRead.read(old, format: "webdataset")
        let after = try await ReshapeRead.read(new, format: "webdataset")
        // Every sample once, under its old key; the new shards are full but the last.
        #expect(after.keys.sorted() == before.keys.sorted() && Set(after.keys).count == after.keys.count, "keys: \(after.keys.count) vs \(before.keys.count)")
        let total = before.keys.count
        let expected = Dictionary(uniqueKeysWithValues: stride(from: 0, to: total, by: 25).map { (String(format: "%05d", $0 / 25), min(25, total - $0)) })
        #expect(total > 25 && after.shards == expected, "\(after.shards), \(total) samples")
        // The same metadata columns, in the same order and types.
        #expect(!before.schema.isEmpty && after.schema == before.schema, "\(after.schema) vs \(before.schema)")
        for key in before.keys {
            #expect(after.string(key, "md5") == before.string(key, "md5"), "\(key): the image bytes changed")
            #expect(after.string(key, "caption") == before.string(key, "caption"), "\(key): caption")
            for column in Self.carried {
                #expect("\(after.meta(key)[column] ?? "nil")" == "\(before.meta(key)[column] ?? "nil")", "\(key): \(column)")
            }
            #expect(after.meta(key)["width"] as? Int == before.size(key).first, "\(key): width")
        }
    }

    @Test func aResizeDecodesTheShardsBytesAndKeepsTheOriginalSize() async throws {
        let fixture = try DatasetFixture(count: 40)
        let old = fixture.work.file("old")
        try await ReshapeRead.img2dataset(fixture, format: "webdataset", folder: old)
        fixture.server.stop()
        let new = fixture.work.file("new")
        let r = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "center_crop",
                                          "--image-size", "64", "--output-format", "files", "--output-folder", new, "--quiet"])
        try #require(r.exitCode == 0, "\(r.stderrText)")
        let before = try await ReshapeRead.read(old, format: "webdataset")
        let after = try await ReshapeRead.read(new, format: "files")
        #expect(after.keys.sorted() == before.keys.sorted())
        for key in before.keys {
            #expect(after.size(key) == [64, 64], "\(key): \(after.size(key))")
            #expect(after.string(key, "md5") != before.string(key, "md5"), "\(key): not re-encoded")
            #expect(after.meta(key)["original_width"] as? Int == before.meta(key)["original_width"] as? Int, "\(key): original_width")
            #expect(after.meta(key)["width"] as? Int == 64 && after.meta(key)["status"] as? String == "success")
        }
        // The copy rule: the mode and size the old images were made with leave them as they are (bytes copied);
        // another encode format re-encodes them at their size.
        let same = fixture.work.file("same"), png = fixture.work.file("png")
        let s = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "keep_ratio",
                                          "--image-size", "256", "--output-format", "webdataset", "--output-folder", same, "--quiet"])
        try #require(s.exitCode == 0, "\(s.stderrText)")
        let p = try await DatasetCLI.run(["--url-list", old, "--input-format", "webdataset", "--resize-mode", "no", "--encode-format", "png", "--encode-quality", "9",
                                          "--output-format", "parquet", "--output-folder", png, "--quiet"])
        try #require(p.exitCode == 0, "\(p.stderrText)")
        let kept = try await ReshapeRead.read(same, format: "webdataset")
        let pngs = try await ReshapeRead.read(png, format: "parquet", image: "png")
        #expect(kept.keys.sorted() == before.keys.sorted() && pngs.keys.sorted() == before.keys.sorted())
        for key in before.keys {
            #expect(kept.string(key, "md5") == before.string(key, "md5"), "\(key): keep_ratio 256 again re-encoded it")
            #expect(pngs.string(key, "format") == "PNG" && pngs.size(key) == before.size(key), "\(key): \(pngs.string(key, "format") ?? "?")")
        }
    }

    /// img2dataset's `--output_format parquet` (the image bytes in its `jpg` column) read back, written as files,
    /// then the files read back into a parquet dataset: the bytes the same all the way.
    @Test func img2datasetsParquetAndOurFilesAreReadBack() async throws {
        let fixture = try DatasetFixture(count: 40)
        let old = fixture.work.file("old")
        try await ReshapeRead.img2dataset(fixture, format: "parquet", folder: old)
        fixture.server.stop()
        let files = fixture.work.file("files"), parquet = fixture.work.file("parquet")
        let a = try await DatasetCLI.run(["--url-list", old, "--input-format", "parquet-images", "--resize-mode", "no",
                                          "--output-format", "files", "--output-folder", files, "--quiet"])
        try #require(a.exitCode == 0, "\(a.stderrText)")
        let b = try await DatasetCLI.run(["--url-list", files, "--input-format", "files", "--resize-mode", "no",
                                          "--number-sample-per-shard", "7", "--output-format", "parquet", "--output-folder", parquet, "--quiet"])
        try #require(b.exitCode == 0, "\(b.stderrText)")
        let before = try await ReshapeRead.read(old, format: "parquet")
        let middle = try await ReshapeRead.read(files, format: "files")
        let after = try await ReshapeRead.read(parquet, format: "parquet")
        #expect(!before.keys.isEmpty && middle.keys.sorted() == before.keys.sorted() && after.keys.sorted() == before.keys.sorted())
        #expect(after.shards.values.max() == 7)
        #expect(!before.schema.isEmpty && after.schema == before.schema && middle.schema == before.schema, "\(after.schema) vs \(before.schema)")
        for key in before.keys {
            #expect(middle.string(key, "md5") == before.string(key, "md5") && after.string(key, "md5") == before.string(key, "md5"), "\(key)")
            for column in Self.carried {
                #expect("\(after.meta(key)[column] ?? "nil")" == "\(before.meta(key)[column] ?? "nil")", "\(key): \(column)")
            }
        }
    }
}
