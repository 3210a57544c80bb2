import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// The dataset's sink over the other kind of object store, a folder: the shard lifecycle the S3 tests see
/// in a bucket (a shard's stats stored only when its other files are, an earlier run's unfinished upload of a
/// key written again aborted) holds through `any ObjectStore`.
@Suite struct ObjectStoreSinkFolderTests {
    @Test func aShardIsWholeWithItsStatsAndAFailedFileLeavesNoStats() async throws {
        let dir = try TempDirectory()
        let root = dir.file("out")
        // An earlier run killed while it wrote 00000.tar, and a folder where 00001.tar must go (its rename fails).
        _ = try dir.write([1], to: "out/00001.tar/in-the-way")
        _ = try dir.write(Array("half".utf8), to: "out/00000.tar.~1-0.upload")
        let sink = ObjectStoreSink(store: FolderObjectStore(root: root), scratchFolder: dir.file("scratch"))
        try await sink.prepare()
        #expect(try sink.list() == ["00001.tar"])

        for shard in ["00000", "00001"] {
            let stats = try sink.create(shard + "_stats.json")  // opened first, stored last
            let tar = try sink.create(shard + ".tar")
            try tar.write(Array("tar of \(shard)".utf8))
            try tar.close()
            try stats.write(Array("{\"shard\":\"\(shard)\"}".utf8))
            try stats.close()
        }
        let failures = await sink.finish()
        #expect(failures.count == 2, "\(failures)")
        #expect(failures.contains { $0.hasPrefix("00001.tar: 00001.tar: ") && $0.contains("rename") }, "\(failures)")
        #expect(failures.contains { $0.hasPrefix("00001_stats.json: not stored, because 00001.tar") }, "\(failures)")
        #expect(try dir.read("out/00000.tar") == Array("tar of 00000".utf8))
        #expect(try dir.read("out/00000_stats.json") == Array("{\"shard\":\"00000\"}".utf8))
        #expect(!FileManager.default.fileExists(atPath: root + "/00001_stats.json"))
        #expect(try sink.list() == ["00000.tar", "00000_stats.json", "00001.tar"])
        #expect(await sink.read("00000_stats.json") == Array("{\"shard\":\"00000\"}".utf8))
        // The earlier run's leftover is gone, and nothing of this run is left half-written.
        let left = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasSuffix(FolderObjectStore.uploadSuffix) }
        #expect(left.isEmpty, "\(left)")
        #expect(sink.activity?.contains("1 unfinished upload of an earlier run aborted") == true, "\(sink.activity ?? "")")
        #expect(sink.activity?.hasPrefix("2 objects stored, 29 bytes uploaded") == true, "\(sink.activity ?? "")")
    }
}
