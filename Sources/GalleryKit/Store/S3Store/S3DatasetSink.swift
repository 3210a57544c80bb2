import DatasetFormats
import Foundation
import GallerySync

/// A dataset's shards in an S3 bucket (or any S3-compatible store) under a prefix.
///
/// Each file is spooled to the work folder as it is written and uploaded as it grows: once a file
/// holds a part's worth of bytes (``S3MultipartPolicy/partSize``) a multipart upload begins and each
/// further part goes up while the shard goes on, read back from the spool only when its turn comes; a
/// file smaller than one part goes up in one PUT when it is closed. Memory holds a few parts at most,
/// whatever a shard's size, and the spool file is deleted once its object is stored.
///
/// A shard's `NNNNN_stats.json` is uploaded only after every other file of the shard is stored, and
/// not at all when one of them failed: in the store, as in a folder, a shard with its stats is whole.
/// What the store holds is listed once, by ``prepare()``; a removal waits for the writes before it.
///
/// A run killed while a file went up in parts leaves its multipart upload unfinished: the store keeps
/// those parts (and bills for them) until the upload is aborted. ``prepare()`` also lists the unfinished
/// uploads under the prefix, and the upload of a key this run writes again is aborted when the run
/// creates that file. Only those: the other processes of a `--shard K/N` run write other shards, and
/// their uploads under way are left alone.
public final class S3DatasetSink: DatasetStoreSink, Sendable {
    public let client: S3Client
    public let bucketLocation: S3Location
    /// Where files are spooled while they are written.
    public let spoolFolder: String
    /// Beside the shard files' spool, in the work folder.
    public var scratchFolder: String { spoolFolder + "/rows" }
    /// In a bucket: nothing is read back from a local folder.
    public var localFolder: String? { nil }
    let slots: UploadSlots
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
        /// Unfinished multipart uploads found by ``prepare()``, by key, not yet aborted.
        var unfinished: [String: [S3MultipartUpload]] = [:]
        var aborted = 0
        var notAborted: [String] = []
    }
    let state = Locked(State())

    public var location: String { bucketLocation.description }

    /// A sink into `location`, spooling under `workFolder` (made when missing), `uploads` PUTs at once.
    public init(client: S3Client, location: S3Location, workFolder: String, uploads: Int = 32,
                ownedEngine: TransferEngine? = nil) throws(GalleryError) {
        self.client = client
        self.bucketLocation = location
        self.spoolFolder = workFolder + "/dataset-spool"
        self.slots = UploadSlots(limit: max(1, uploads))
        self.ownedEngine = ownedEngine
        try POSIX.makeDirectories(spoolFolder)
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
        let listed: [S3ObjectInfo]
        let unfinished: [S3MultipartUpload]
        do {
            try await client.checkBucket(prefix: bucketLocation.prefix)
            listed = try await client.list(prefix: bucketLocation.prefix)
            unfinished = try await client.listMultipartUploads(prefix: bucketLocation.prefix)
        } catch {
            throw .unavailable(error.description)
        }
        state.withLock { s in
            for upload in unfinished { s.unfinished[upload.key, default: []].append(upload) }
        }
        let tops = listed.compactMap { object -> String? in
            let relative = object.key.dropFirst(bucketLocation.prefix.count)
            return relative.split(separator: "/").first.map(String.init)
        }
        state.withLock { $0.names.formUnion(tops) }
    }

    // MARK: DatasetSink

    public func create(_ name: String) throws(DatasetFormatError) -> any DatasetFileHandle {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw .invalidName(name)
        }
        let key = bucketLocation.key(name)
        let unfinished = state.withLock { s in
            s.names.insert(String(parts[0]))
            return s.unfinished.removeValue(forKey: key) ?? []
        }
        if !unfinished.isEmpty { abort(unfinished, of: String(parts[0])) }
        return try S3SpoolHandle(sink: self, name: name)
    }

    /// Folders are key prefixes: nothing to make in the store (the spool's are made with their files).
    public func makeFolder(_ name: String) throws(DatasetFormatError) {}

    public func remove(_ name: String) {
        // `.part` names are a folder's half-written files; here those are only in the spool.
        guard !name.hasSuffix(".part"), !name.contains("/"),
              state.withLock({ $0.names.remove(name) != nil }) else { return }
        let key = bucketLocation.key(name)
        let client = client
        state.withLock { s in
            let earlier = s.pending.values.filter { $0.top == name }.map(\.task)
            let previous = s.removals[name]
            s.removals[name] = Task {
                for task in earlier { await task.value }
                await previous?.value
                do {
                    for object in try await client.list(prefix: key) where object.key == key || object.key.hasPrefix(key + "/") {
                        try await client.delete(key: object.key)
                    }
                } catch {
                    self.fail(name, "cannot delete \(key): \(error)")
                }
            }
        }
    }

    public func exists(_ name: String) -> Bool { state.withLock { $0.names.contains(name) } }

    public func read(_ name: String) async -> [UInt8]? {
        guard let data = try? await client.get(key: bucketLocation.key(name)) else { return nil }
        return [UInt8](data)
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
    func closed(_ handle: S3SpoolHandle) {
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
    private func abort(_ uploads: [S3MultipartUpload], of top: String) {
        let client = client
        enqueue(top) {
            for upload in uploads {
                do throws(S3Error) {
                    try await client.abort(upload)
                    self.state.withLock { $0.aborted += 1 }
                } catch {
                    self.state.withLock { $0.notAborted.append("\(upload.key) (upload \(upload.uploadID)): \(error)") }
                }
            }
        }
    }

    /// An object is stored (`object`), or a part of one sent; `bytes` were uploaded.
    func stored(bytes: Int64, object: Bool) { state.withLock { $0.objects += object ? 1 : 0; $0.bytes += bytes } }
    func sent(bytes: Int64) { stored(bytes: bytes, object: false) }

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
