import DatasetFormats
import Foundation
import GalleryObjectStore
import GalleryRunner
import GallerySync
import GalleryTransfer

/// A dataset's shards in an object store (``ObjectStore``: an S3 bucket under a prefix), each file a
/// stream of the store (``ObjectStore/writer(for:_:)``: for S3, spooled to the work folder and uploaded
/// in parts as it grows, so memory holds a few parts at most whatever a shard's size).
///
/// A shard's `NNNNN_stats.json` is uploaded only after every other file of the shard is stored, and
/// not at all when one of them failed: in the store, as in a folder, a shard with its stats is whole.
/// What the store holds is listed once, by ``prepare()``; a removal waits for the writes before it.
///
/// A run killed while a file went up leaves its upload unfinished (S3 keeps the parts, and bills for
/// them, until the upload is aborted). ``prepare()`` also lists the unfinished uploads under the store's
/// root, and the upload of a key this run writes again is aborted when the run creates that file. Only
/// those: the other processes of a `--shard K/N` run write other shards, and their uploads under way are
/// left alone.
public final class ObjectStoreSink: DatasetStoreSink, Sendable {
    /// Where the files go; names are its keys.
    public let store: any ObjectStore
    /// A local folder for the run's temporary files (beside the store's spool, in the work folder).
    public let scratchFolder: String
    /// In a store: nothing is read back from a local folder.
    public var localFolder: String? { nil }
    private let ownedEngine: TransferEngine?

    struct Pending {
        var top: String
        var task: Task<Void, Never>
    }

    struct State {
        /// Top-level names in the store, or being written to it.
        var names: Set<String> = []
        var pending: [UInt64: Pending] = [:]
        /// The deletion under way of each top-level name: writes to it wait for it.
        var removals: [String: Task<Void, Never>] = [:]
        var next: UInt64 = 0
        var failures: [(top: String, text: String)] = []
        var objects = 0
        var bytes: Int64 = 0
        /// Unfinished uploads found by ``prepare()``, by key, not yet aborted.
        var unfinished: [String: [UnfinishedUpload]] = [:]
        var aborted = 0
        var notAborted: [String] = []
    }
    let state = Locked(State())

    public var location: String { store.location }

    /// A sink into `store`, its temporary files in `scratchFolder`; ``close()`` shuts `ownedEngine` down.
    public init(store: any ObjectStore, scratchFolder: String, ownedEngine: TransferEngine? = nil) {
        self.store = store
        self.scratchFolder = scratchFolder
        self.ownedEngine = ownedEngine
    }

    public var activity: String? {
        let (objects, bytes, aborted, notAborted) = state.withLock { ($0.objects, $0.bytes, $0.aborted, $0.notAborted) }
        var text = "\(objects) objects stored, \(bytes) bytes uploaded"
        if aborted > 0 { text += ", \(aborted) unfinished upload\(aborted == 1 ? "" : "s") of an earlier run aborted" }
        if !notAborted.isEmpty {
            text += "; could not abort an earlier run's unfinished upload of " + notAborted.joined(separator: "; ")
        }
        return text
    }

    public func close() { ownedEngine?.shutdown() }

    public func prepare() async throws(GalleryStoreError) {
        let listed: [StoredObject]
        let unfinished: [UnfinishedUpload]
        do {
            try await store.check(prefix: "")
            listed = try await store.list(prefix: "")
            unfinished = try await store.unfinishedUploads(prefix: "")
        } catch {
            throw .unavailable(error.description)
        }
        state.withLock { s in
            for upload in unfinished { s.unfinished[upload.key, default: []].append(upload) }
        }
        let tops = listed.compactMap { $0.key.split(separator: "/").first.map(String.init) }
        state.withLock { $0.names.formUnion(tops) }
    }

    // MARK: DatasetSink

    public func create(_ name: String) throws(DatasetFormatError) -> any DatasetFileHandle {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw .invalidName(name)
        }
        let unfinished = state.withLock { s in
            s.names.insert(String(parts[0]))
            return s.unfinished.removeValue(forKey: name) ?? []
        }
        if !unfinished.isEmpty { abort(unfinished, of: String(parts[0])) }
        let writer: any ObjectWriter
        do { writer = try store.writer(for: name, ObjectPutOptions(contentType: ObjectPutOptions.contentType(of: name))) } catch {
            throw ObjectSinkFile.datasetError(error, name: name)
        }
        return ObjectSinkFile(sink: self, name: name, writer: writer)
    }

    /// Folders are key prefixes: nothing to make in the store (the spool's are made with their files).
    public func makeFolder(_ name: String) throws(DatasetFormatError) {}

    public func remove(_ name: String) {
        // `.part` names are a folder's half-written files; here those are only in the spool.
        guard !name.hasSuffix(".part"), !name.contains("/"),
              state.withLock({ $0.names.remove(name) != nil }) else { return }
        let store = store
        state.withLock { s in
            let earlier = s.pending.values.filter { $0.top == name }.map(\.task)
            let previous = s.removals[name]
            s.removals[name] = Task {
                for task in earlier { await task.value }
                await previous?.value
                do throws(ObjectStoreError) {
                    for object in try await store.list(prefix: name) where object.key == name || object.key.hasPrefix(name + "/") {
                        try await store.delete(object.key)
                    }
                } catch {
                    self.fail(name, "cannot delete \(store.location(of: name)): \(error)")
                }
            }
        }
    }

    public func exists(_ name: String) -> Bool { state.withLock { $0.names.contains(name) } }

    public func read(_ name: String) async -> [UInt8]? {
        try? await store.get(name)
    }

    public func list() throws(DatasetFormatError) -> [String] { state.withLock { $0.names.sorted() } }

    // MARK: uploads

    /// Runs `body` after the deletion of `top` under way, and after every pending write whose top-level
    /// name `after` accepts; ``finish()`` waits for it.
    func enqueue(_ top: String, after: @escaping @Sendable (String) -> Bool = { _ in false },
                 _ body: @escaping @Sendable () async -> Void) {
        state.withLock { s in
            let id = s.next
            s.next += 1
            let removal = s.removals[top]
            let earlier = s.pending.values.filter { after($0.top) }.map(\.task)
            let task = Task {
                await removal?.value
                for task in earlier { await task.value }
                await body()
                _ = self.state.withLock { $0.pending.removeValue(forKey: id) }
            }
            s.pending[id] = Pending(top: top, task: task)
        }
    }

    /// A file is closed: its upload finishes, or for `NNNNN_stats.json`, it goes up once every other
    /// file of shard NNNNN is stored (and never when one failed).
    func closed(_ handle: ObjectSinkFile) {
        let top = String(handle.name.split(separator: "/")[0])
        guard handle.name.hasSuffix("_stats.json"), !handle.name.contains("/") else {
            return enqueue(top) { await handle.complete() }
        }
        let shard = String(handle.name.dropLast("_stats.json".count))
        let ofShard: @Sendable (String) -> Bool = { $0 == shard || $0.hasPrefix(shard + ".") }
        enqueue(top, after: ofShard) {
            let failed = self.state.withLock { $0.failures.first { ofShard($0.top) } }
            if let failed {
                handle.discard()
                // Not in the store: the list (and the trainers' indexes made from it) leave the shard out.
                _ = self.state.withLock { $0.names.remove(top) }
                self.fail(top, "not stored, because \(failed.text)")
            } else {
                await handle.complete()
            }
        }
    }

    /// Aborts the unfinished uploads an earlier run left for a key this run writes again. One the store
    /// will not abort does not fail the shard (its new file is whole): the last line names it instead.
    private func abort(_ uploads: [UnfinishedUpload], of top: String) {
        let store = store
        enqueue(top) {
            for upload in uploads {
                do throws(ObjectStoreError) {
                    try await store.abort(upload)
                    self.state.withLock { $0.aborted += 1 }
                } catch {
                    self.state.withLock { $0.notAborted.append("\(store.location(of: upload.key)) (upload \(upload.id)): \(error)") }
                }
            }
        }
    }

    /// An object of `bytes` is stored.
    func stored(bytes: Int64) { state.withLock { $0.objects += 1; $0.bytes += bytes } }

    func fail(_ top: String, _ text: String) { state.withLock { $0.failures.append((top, text)) } }

    public func finish() async -> [String] {
        while true {
            let (tasks, done) = state.withLock { s in (s.pending.values.map(\.task) + s.removals.values, s.pending.isEmpty) }
            for task in tasks { await task.value }
            if done { break }
        }
        return state.withLock { $0.failures.map { "\($0.top): \($0.text)" } }
    }
}
