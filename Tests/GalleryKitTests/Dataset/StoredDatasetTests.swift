import DatasetFormats
import Foundation
import GallerySync
import GalleryTestSupport
import GalleryTransfer
import Testing
@testable import GalleryKit
@testable import GalleryDataset
@testable import GalleryRunner

/// A finished dataset read back from an object store (``StoredDataset``, here over a ``FolderObjectStore``; the
/// S3 store is CLITests' `DatasetS3ReshapeTests`): each old shard is copied when the reader comes to it and its
/// copy removed once its samples are done, so the copies on disk stay a handful whatever the number of shards.
@Suite struct StoredDatasetTests {
    /// 40 shards of 2 samples (a real JPEG, its `.json`), each with its `_stats.json`, in `root`.
    static func oldDataset(in root: String, shards: Int = 40, stats: String = "{}") throws {
        let jpeg = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let folder = try LocalFolderSink(folder: root)
        for s in 0..<shards {
            let name = String(format: "%05d", s)
            let tar = TarWriter(handle: try folder.create(name + ".tar"))
            for i in 0..<2 {
                let key = name + String(format: "%04d", i)
                try tar.add(key + ".jpg", jpeg)
                try tar.add(key + ".json", text: #"{"key": "\#(key)", "caption": "photo \#(key)"}"#)
            }
            try tar.close()
            try Data(stats.utf8).write(to: URL(fileURLWithPath: root + "/" + name + "_stats.json"))
        }
    }

    /// Counts the shard copies on disk each time a row finishes.
    final class CopyWatcher: DatasetRunObserver {
        let spool: String
        let most = Locked(0)
        init(spool: String) { self.spool = spool }
        func shardStarted(name: String, rows: Int) {}
        func rowFinished(failed: Bool) {
            let copies = ((try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? []).filter { !$0.hasSuffix(".lock") }
                .map { ((try? FileManager.default.contentsOfDirectory(atPath: spool + "/" + $0)) ?? []).count }.reduce(0, +)
            most.withLock { $0 = max($0, copies) }
        }
        func shardFinished(name: String, count: Int, successes: Int) {}
        func shardSkipped(name: String, rows: Int, done: Bool) {}
    }

    @Test func theShardCopiesStayAHandfulAndGoWhenTheirSamplesAreDone() async throws {
        let dir = try TempDirectory()
        try Self.oldDataset(in: dir.file("store"))
        var stored: StoredDataset? = try await StoredDataset.open(FolderObjectStore(root: dir.file("store")), engine: TransferEngine(),
                                                  workFolder: dir.file("work"), format: DatasetInputFormat(kind: .webdataset))
        #expect(stored?.shards.count == 40)
        var options = DatasetOptions(urlList: dir.file("store"))
        options.inputFormat = DatasetInputFormat(kind: .webdataset)
        options.outputFormat = .webdataset
        options.outputFolder = dir.file("out")
        options.numberSamplePerShard = 5
        options.image.resizeMode = .no
        options.optOut = nil
        let watcher = CopyWatcher(spool: dir.file("work/reshape-input"))
        var run: DatasetRun? = try DatasetRun(options: options, observers: [], stored: stored!) { _ throws(DatasetError) in
            do { return try LocalFolderSink(folder: dir.file("out")) } catch { throw .output("\(error)") }
        }
        let summary = try await run!.run(observer: watcher)
        #expect(summary.successes == 80 && summary.shardsWritten == 16, "\(summary)")
        // Each new shard of 5 samples holds at most 3 old shards of 2, and at most BatchRunner.openItems of them are
        // open at once (two in flight, the others finishing their last rows); besides them the first old shard
        // (kept by the run for its column types), the one being read, and the next one's copy.
        let most = watcher.most.withLock { $0 }
        let open = BatchRunner.openItems(window: options.shardsInFlight)
        #expect(most > 0 && most <= 3 + 3 * open + 2, "\(most) shard copies on disk at once (of 40 shards, \(open) new ones open)")
        run = nil
        stored = nil
        #expect(!FileManager.default.fileExists(atPath: dir.file("work/reshape-input")), "the copies' folder is still there")
    }

    /// One process of a `--shard 1/4` reshape copies the old shards its new shards take rows from (and the first,
    /// whose samples give the columns), not all 40: the others are counted by their `_stats.json`, and none is
    /// copied ahead for nothing. Stats that do not count their samples leave every shard to be copied.
    @Test(arguments: [true, false])
    func aShardOfTheRunCopiesOnlyTheOldShardsItReads(counted: Bool) async throws {
        let dir = try TempDirectory()
        try Self.oldDataset(in: dir.file("store"), stats: counted ? #"{"count": 2, "successes": 2}"# : "{}")
        let stored = try await StoredDataset.open(FolderObjectStore(root: dir.file("store")), engine: TransferEngine(),
                                                  workFolder: dir.file("work"), format: DatasetInputFormat(kind: .webdataset))
        var options = DatasetOptions(urlList: dir.file("store"))
        options.inputFormat = DatasetInputFormat(kind: .webdataset)
        options.outputFormat = .webdataset
        options.outputFolder = dir.file("out")
        options.numberSamplePerShard = 3
        options.shard = (index: 1, count: 4)
        options.image.resizeMode = .no
        options.optOut = nil
        let run = try DatasetRun(options: options, observers: [], stored: stored) { _ throws(DatasetError) in
            do { return try LocalFolderSink(folder: dir.file("out")) } catch { throw .output("\(error)") }
        }
        let summary = try await run.run()
        // 80 samples in new shards of 3: 27 shards, of which this process writes 1, 5, ..., 25 (7 shards, 21 samples).
        #expect(summary.successes == 21 && summary.shardsWritten == 7, "\(summary)")
        let tars = try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).filter { $0.hasSuffix(".tar") }.sorted()
        #expect(tars == [1, 5, 9, 13, 17, 21, 25].map { String(format: "%05d.tar", $0) })
        // New shard k holds rows 3k, 3k+1 and 3k+2 of the old stream, with their keys (row r is old shard r/2's
        // sample r%2): shard 1, old shard 1's second and old shard 2's two.
        for k in [1, 5, 9, 13, 17, 21, 25] {
            let listing = try ProcessRunner.run("/usr/bin/tar", ["-tf", dir.file(String(format: "out/%05d.tar", k))], timeout: 30)
            let members = listing.stdoutText.split(separator: "\n").filter { $0.hasSuffix(".json") }.map(String.init).sorted()
            let expected = (3 * k...3 * k + 2).map { String(format: "%05d%04d.json", $0 / 2, $0 % 2) }
            #expect(members == expected, "shard \(k)")
        }
        if counted {
            // New shard k takes rows 3k..3k+2, from old shards 3k/2 and (3k+2)/2: 1 and 2 for shard 1, 7 and 8 for
            // shard 5, ... 37 and 38 for shard 25 (14), and 0 for new shard 0, which every process reads for the
            // columns' types. A shard's successor is copied ahead only when it will be read.
            #expect(stored.copiesBegun == 15, "\(stored.copiesBegun) of 40 old shards copied")
            #expect(stored.shardsCounted >= 40 - 15, "\(stored.shardsCounted) counted")
        } else {
            #expect(stored.copiesBegun == 40 && stored.shardsCounted == 0)
        }
    }

    /// When the reader opens a shard, the next one's copy is already under way, and each shard is copied once.
    @Test func theNextShardIsCopiedWhileOneIsReadAndEachOnce() async throws {
        let dir = try TempDirectory()
        try Self.oldDataset(in: dir.file("store"), shards: 5)
        let stored = try await StoredDataset.open(FolderObjectStore(root: dir.file("store")), engine: TransferEngine(),
                                                  workFolder: dir.file("work"), format: DatasetInputFormat(kind: .webdataset))
        #expect(stored.copiesBegun == 1 && stored.copyAhead == nil)
        var samples = 0
        for (i, shard) in stored.shards.enumerated() {
            let reader = try await stored.reader(shard.location)
            #expect(stored.copyAhead == (i < 4 ? i + 1 : nil), "after opening shard \(i)")
            // The next shard's copy is made once: the reader takes it when it comes to that shard.
            await stored.waitForCopyAhead()
            #expect(stored.copiesBegun == min(i + 2, 5), "after opening shard \(i)")
            while let record = try reader.next() {
                samples += 1
                #expect(record.reshape?.spool?.path.hasSuffix("/" + shard.name) == true)
            }
        }
        #expect(samples == 10 && stored.copiesBegun == 5, "\(samples) samples, \(stored.copiesBegun) copies")
    }

    /// An error of a copy's reader names the shard's object, not the local copy.
    @Test func aCopysErrorsNameTheObject() throws {
        let dir = try TempDirectory()
        try Self.oldDataset(in: dir.file("copy"), shards: 1)
        let path = dir.file("copy/00000.tar")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(bytes.prefix(600)).write(to: URL(fileURLWithPath: path))
        let shard = SpooledShard(folder: dir.file("copy"), path: path)
        #expect(throws: DatasetError.self) { _ = try SpooledShardReader(shard: shard, remote: "s3://b/p/00000.tar", format: DatasetInputFormat(kind: .webdataset)) }
        do {
            _ = try SpooledShardReader(shard: shard, remote: "s3://b/p/00000.tar", format: DatasetInputFormat(kind: .webdataset))
        } catch {
            #expect("\(error)".hasPrefix("cannot read s3://b/p/00000.tar: the tar is cut short"), "\(error)")
            #expect(!"\(error)".contains(dir.path), "\(error)")
        }
    }
}
