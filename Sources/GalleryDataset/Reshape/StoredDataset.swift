import Foundation
import GalleryObjectStore
import GalleryRunner
import GallerySync
import GallerySystem
import GalleryTransfer

/// `--url-list s3://BUCKET/PREFIX` with `--input-format webdataset|parquet-images|files`: a finished dataset
/// in a store, read back through the store's own ``ObjectStore`` (one listing, then a GET per object) on
/// connections of its own. Its finished shards are those with their `NNNNN_stats.json` (a run stores it last),
/// in name order. Each shard is copied, when the reader comes to it, into a folder of its own under the work
/// folder (``SpooledShard``), streamed to disk so memory stays flat whatever its size, and removed once its
/// samples are done: the local copies are those of the old shards in flight (and the next one's, copied while
/// the one before is read), not the dataset.
final class StoredDataset: Sendable {
    /// One finished shard: where it is (for messages and the reader's file list), its name
    /// (`00000.tar`, `00000` for a shard folder), its objects' keys and its `NNNNN_stats.json`'s.
    struct Shard: Sendable {
        var location: String
        var name: String
        var keys: [String]
        var stats: String
    }

    /// `s3://bucket/prefix/`.
    let location: String
    let shards: [Shard]
    /// The shards passed over for want of their `_stats.json` (a run still writing them, or one that died).
    let unfinished: [String]
    private let store: any ObjectStore
    private let engine: TransferEngine
    private let format: DatasetInputFormat
    private let spool: RowSpool
    private let copies = Locked(0)
    private let statsRead = Locked(0)
    /// Every shard's count, read on the first ``sampleCount(_:runner:)``.
    private let counts = Locked<Task<[Int?], Never>?>(nil)
    /// Each shard's position in ``shards``, by location.
    private let indexes: [String: Int]
    /// The first shard, copied to learn the columns, until the reader opens it.
    private let first = Locked<SpooledShard?>(nil)
    /// The copy of the shard after the one the reader opened last, under way.
    private let ahead = Locked<(index: Int, copy: Task<Result<SpooledShard, DatasetError>, Never>)?>(nil)

    /// Lists the dataset at `url` and copies its first shard. An unreachable store, a missing bucket, a prefix
    /// that holds nothing or no finished shard: ``DatasetError/unreadableInput(path:reason:)`` naming `url`.
    static func open(_ url: String, format: DatasetInputFormat, options: GalleryStoreOptions) async throws(DatasetError) -> StoredDataset {
        guard let kind = GalleryStores.kind(of: url) else { throw .unreadableInput(path: url, reason: "not a store location") }
        if let problem = kind.problem(with: options) { throw .invalidOption(problem) }
        let opened: StoreObjects
        do { opened = try kind.openObjects(url, options: options, engine: nil, spool: GalleryStores.datasetSpool) } catch {
            throw .store(error)
        }
        return try await open(opened.store, engine: opened.ownedEngine!, workFolder: opened.workFolder, format: format)
    }

    /// The dataset in `store`, read on `engine` (shut down with the dataset, or now when it cannot be read),
    /// its shards copied under `workFolder`.
    static func open(_ store: any ObjectStore, engine: TransferEngine, workFolder: String,
                     format: DatasetInputFormat) async throws(DatasetError) -> StoredDataset {
        do throws(DatasetError) {
            let objects: [StoredObject]
            do { objects = try await store.list(prefix: "") } catch {
                throw .unreadableInput(path: store.location, reason: "cannot list it: \(error)")
            }
            let (shards, unfinished) = try Self.finishedShards(objects.map(\.key), kind: format.kind, store: store)
            let spool = try RowSpool(base: workFolder + "/reshape-input", memoryLimit: 0)
            let dataset = StoredDataset(store: store, engine: engine, format: format, spool: spool, shards: shards, unfinished: unfinished)
            let copy = try await dataset.copy(shards[0])
            dataset.first.withLock { $0 = copy }
            return dataset
        } catch {
            engine.shutdown()
            throw error
        }
    }

    private init(store: any ObjectStore, engine: TransferEngine, format: DatasetInputFormat, spool: RowSpool, shards: [Shard],
                 unfinished: [String]) {
        self.unfinished = unfinished
        self.store = store
        self.engine = engine
        self.format = format
        self.spool = spool
        self.shards = shards
        location = store.location
        indexes = Dictionary(shards.enumerated().map { ($1.location, $0) }, uniquingKeysWith: { a, _ in a })
    }

    deinit {
        first.withLock { $0 = nil }
        spool.close()
        engine.shutdown()
    }

    /// The first shard's columns (its first sample's, as a folder's first shard gives them).
    func columns() throws(DatasetError) -> [String] {
        guard let copy = first.withLock({ $0 }) else { return [] }
        return try SpooledShardReader(shard: copy, remote: shards[0].location, format: format).columns
    }

    /// The reader of the shard at `location` (one of ``shards``): its copy, begun when the reader opened the shard
    /// before (or made now); the next shard's copy begins at once (unless `copyAhead` is false: the reader will
    /// pass it over), so that it goes on while this one is read.
    func reader(_ location: String, copyAhead: Bool = true) async throws(DatasetError) -> any InputRecordReader {
        guard let index = indexes[location] else { throw .unreadableInput(path: location, reason: "not a shard of \(self.location)") }
        let kept = first.withLock { copy in
            defer { copy = nil }
            return copy
        }
        let early = ahead.withLock { next in
            defer { next = nil }
            return next
        }
        let copy: SpooledShard
        if index == 0, let kept {
            copy = kept
        } else if let early, early.index == index {
            copy = try await early.copy.value.get()
        } else {
            copy = try await self.copy(shards[index])
        }
        if copyAhead, index + 1 < shards.count {
            let next = shards[index + 1]
            let task = Task { () async -> Result<SpooledShard, DatasetError> in
                do throws(DatasetError) { return .success(try await self.copy(next)) } catch { return .failure(error) }
            }
            ahead.withLock { $0 = (index + 1, task) }
        }
        return try SpooledShardReader(shard: copy, remote: shards[index].location, format: format)
    }

    /// The samples the shard at `location` holds, as its `NNNNN_stats.json` counts them (`successes`: a shard
    /// holds only the samples that succeeded); nil when the stats cannot be read or do not say. A reader passes
    /// over a shard that holds none of its rows by this count, without copying it (another `--shard`'s, or
    /// those of new shards an earlier run finished). The first call reads every shard's stats, 16 at a time on
    /// `runner` (one at a time, each costs a round trip the reader waits for).
    func sampleCount(_ location: String, runner: BatchRunner) async -> Int? {
        guard let index = indexes[location] else { return nil }
        let task = counts.withLock { task in
            if task == nil { task = Task { await self.readCounts(runner: runner) } }
            return task!
        }
        return await task.value[index]
    }

    /// Every shard's count (``sampleCount(_:runner:)``), in order.
    private func readCounts(runner: BatchRunner) async -> [Int?] {
        let counts = Locked([Int?](repeating: nil, count: shards.count))
        await runner.forEach(window: 16, Array(shards.indices)) { index in
            let count = await self.readCount(self.shards[index])
            counts.withLock { $0[index] = count }
        }
        return counts.withLock { $0 }
    }

    private func readCount(_ shard: Shard) async -> Int? {
        guard let bytes = try? await store.get(shard.stats),
              let stats = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let successes = stats["successes"] as? Int, successes >= 0 else { return nil }
        statsRead.withLock { $0 += 1 }
        return successes
    }

    /// The shard whose copy is under way ahead of the reader (nil: none), and the copies begun so far.
    var copyAhead: Int? { ahead.withLock { $0?.index } }
    var copiesBegun: Int { copies.withLock { $0 } }
    /// Shards whose stats gave a count.
    var shardsCounted: Int { statsRead.withLock { $0 } }

    /// Returns once the copy ahead of the reader, if any, is done (for the tests).
    func waitForCopyAhead() async {
        let copy = ahead.withLock { $0?.copy }
        _ = await copy?.value
    }

    /// Copies the shard's objects into a new folder (removed again when the copy fails).
    private func copy(_ shard: Shard) async throws(DatasetError) -> SpooledShard {
        let n = copies.withLock { n in
            n += 1
            return n
        }
        let copy = SpooledShard(folder: spool.folder + "/\(n)", path: spool.folder + "/\(n)/" + shard.name)
        for key in shard.keys {
            let path = copy.folder + "/" + key
            do { try Syscall.makeDirectories(PathText.directory(path)) } catch {
                throw .output("cannot make the folder for a copy of \(store.location(of: key)): \(error)")
            }
            let size: Int64?
            do { size = try await store.get(key, to: path) } catch {
                throw .unreadableInput(path: store.location(of: key), reason: "cannot fetch it: \(error)")
            }
            guard size != nil else { throw .unreadableInput(path: store.location(of: key), reason: "the object is gone (deleted since it was listed)") }
        }
        return copy
    }

    /// The finished shards among `keys` in name order: a `NNNNN.tar` (webdataset), `NNNNN.parquet`
    /// (parquet-images) or the objects under `NNNNN/` (files), each with its `NNNNN_stats.json`; and the names of
    /// the others.
    static func finishedShards(_ keys: [String], kind: DatasetInputFormat.Kind,
                               store: any ObjectStore) throws(DatasetError) -> (shards: [Shard], unfinished: [String]) {
        guard !keys.isEmpty else { throw .unreadableInput(path: store.location, reason: "nothing is stored under this prefix") }
        let finished = Set(keys.filter { !$0.contains("/") && $0.hasSuffix("_stats.json") }.map { String($0.dropLast("_stats.json".count)) })
        func numbered(_ stem: Substring) -> Bool { !stem.isEmpty && stem.allSatisfy(\.isNumber) }
        var byName: [String: [String]] = [:]
        let suffix = kind == .webdataset ? ".tar" : ".parquet"
        for key in keys {
            if kind == .files {
                let parts = key.split(separator: "/", maxSplits: 1)
                if parts.count == 2, numbered(parts[0]) { byName[String(parts[0]), default: []].append(key) }
            } else if !key.contains("/"), key.hasSuffix(suffix), numbered(key.dropLast(suffix.count)) {
                byName[key, default: []].append(key)
            }
        }
        let names = byName.keys.sorted()
        func stem(_ name: String) -> String { kind == .files ? name : String(name.dropLast(suffix.count)) }
        let done = names.filter { finished.contains(stem($0)) }
        guard !done.isEmpty else {
            let what = kind == .files ? "shard folder (00000/)" : "\(suffix) shard"
            throw .unreadableInput(path: store.location, reason: names.isEmpty ? "no \(what) under this prefix"
                : "no finished shard: \(names.count) \(what)(s) but none with its NNNNN_stats.json (an unfinished run's?)")
        }
        let shards = done.map { Shard(location: store.location(of: $0), name: $0, keys: byName[$0]!.sorted(), stats: stem($0) + "_stats.json") }
        let kept = Set(done)
        return (shards, names.filter { !kept.contains($0) })
    }
}
