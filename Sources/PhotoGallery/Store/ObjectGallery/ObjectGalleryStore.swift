import Foundation
import GallerySystem
import GallerySync

/// The gallery in an object store (``ObjectStore``: for `s3://BUCKET/PREFIX` an ``S3ObjectStore``, opened
/// by ``S3StoreKind``), made in a local work folder.
///
/// The run makes each file in the work folder as for a folder gallery; ``publish(_:)`` queues its
/// upload, and up to ``inFlight`` uploads run at once through ``objects``, each object whole (for S3 one
/// PUT, or a multipart upload for a large original, at most `--s3-uploads` bodies in flight: the store's
/// throttle). Originals and thumbnails are put `ifAbsent` (another shard's copy is never replaced) and,
/// once stored, their local copies are deleted: the work folder keeps the journal, the pages and the
/// downloads in progress, not the photos.
///
/// What the store holds is known without listing it: every upload that succeeds is appended to
/// `published.tsv` in the work folder, uploaded with the journal (see ``checkpoint(journal:)``).
/// The journal is uploaded only after every file it records is stored, so a run on a fresh work folder
/// that fetches both (``prepare()``) trusts what they say. A merge keeps the list of the keys it
/// wrote in the store likewise (``MergeKeyList``), so the next merge deletes what went stale.
public final class ObjectGalleryStore: GalleryStore {
    public let folder: String
    /// The bucket's objects under the gallery's prefix: every byte the store sends or fetches goes through it.
    public let objects: any ObjectStore
    /// Uploads at once.
    public let inFlight: Int
    /// How often the journal goes to the store while the run goes on (nil: only at the end).
    public let checkpointInterval: Duration?
    public var location: String { objects.location }

    /// Where the list of stored files is kept in the work folder (each line: size, tab, path).
    public static let publishedPath = ".fetch-gallery/store/published.tsv"

    /// Where the list goes in the store: beside the journal at `journalPath` (each shard has its own).
    public static func publishedKeyPath(journal journalPath: String) -> String {
        PathText.directory(journalPath) + "/published.tsv"
    }

    private struct State {
        /// Stored files and their sizes.
        var published: [String: Int64] = [:]
        var next: UInt64 = 0
        var outstanding: Set<UInt64> = []
        var waiters: [(through: UInt64, continuation: HandOffContinuation<Void, Never>)] = []
        var failure: GalleryError?
        /// Bytes sent in PUT bodies (uploads the store already had are not counted).
        var bytesUploaded: Int64 = 0
        var objectsUploaded = 0
        /// `index.html` was handed over: uploaded by the next flush, after everything else.
        var entryPoint = false
        /// Pages removed while their replacements were being written: deleted from the store by the
        /// next flush, after `index.html`, so no page in the store links to a deleted one meanwhile.
        var stalePages: [String] = []
    }
    private let state = Locked(State())
    private enum Job: Sendable { case put(String, UInt64), delete(String, UInt64) }
    private struct WeakStore { weak var store: ObjectGalleryStore? }
    private let jobs: AsyncStream<Job>.Continuation
    private let uploader: Task<Void, Never>
    let log: Locked<Int32>
    /// While a merge writes (``fetchParts()`` to ``finishMerge()``): the keys it writes and the earlier merge's.
    let merging = Locked<MergeKeyList?>(nil)

    /// The engine the store made for itself (``GalleryStores`` with no engine given), shut down by ``close()``.
    private let ownedEngine: TransferEngine?

    /// A store for the bucket `location` on `client`, working in the local folder `workFolder` (created
    /// when missing); ``close()`` shuts `ownedEngine` down.
    public convenience init(client: S3Client, location: S3Location, workFolder: String, inFlight: Int = 32,
                            checkpointInterval: Duration? = .seconds(180), ownedEngine: TransferEngine? = nil) throws(GalleryError) {
        let objects = S3ObjectStore(client: client, location: location, spoolFolder: workFolder + "/" + GalleryStores.gallerySpool,
                                    uploads: inFlight)
        try self.init(objects: objects, workFolder: workFolder, inFlight: inFlight, checkpointInterval: checkpointInterval,
                      ownedEngine: ownedEngine)
    }

    /// A store over `objects`, working in the local folder `workFolder` (created when missing);
    /// ``close()`` shuts `ownedEngine` down.
    public init(objects: any ObjectStore, workFolder: String, inFlight: Int = 32,
                checkpointInterval: Duration? = .seconds(180), ownedEngine: TransferEngine? = nil) throws(GalleryError) {
        self.objects = objects
        self.ownedEngine = ownedEngine
        self.folder = workFolder
        self.inFlight = max(1, inFlight)
        self.checkpointInterval = checkpointInterval
        try POSIX.makeDirectories(workFolder + "/.fetch-gallery/store")
        log = Locked(try POSIX.open(workFolder + "/" + Self.publishedPath, O_WRONLY | O_CREAT | O_APPEND))
        let (stream, jobs) = AsyncStream<Job>.makeStream()
        self.jobs = jobs
        let (folder, limit) = (workFolder, self.inFlight)
        // The uploads reach the store through a weak reference: the task lives as long as the stream,
        // which only `deinit` ends, so a strong one kept every store (and its descriptor) alive for good.
        let box = Locked(WeakStore())
        uploader = Task {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await job in stream {
                    if running >= limit { await group.next(); running -= 1 }
                    group.addTask { await box.withLock { $0.store }?.perform(job, folder: folder) }
                    running += 1
                }
            }
        }
        box.withLock { $0.store = self }
        _ = loadPublished()
    }

    deinit {
        jobs.finish()
        uploader.cancel()
        log.withLock { POSIX.closeQuietly($0) }
    }

    /// Totals so far: objects and bytes uploaded.
    public var uploaded: (objects: Int, bytes: Int64) { state.withLock { ($0.objectsUploaded, $0.bytesUploaded) } }

    public var activity: String? {
        let (objects, bytes) = uploaded
        return "\(objects) objects stored, \(bytes) bytes uploaded; work folder \(folder)"
    }

    public func close() { ownedEngine?.shutdown() }

    // MARK: GalleryStore

    public func size(of path: String) -> Int64? {
        POSIX.fileSize(folder + "/" + path) ?? state.withLock { $0.published[path] }
    }

    /// The bucket holds what earlier runs published, whatever the work folder holds.
    public var holdsOnlyTheFolder: Bool { false }

    public func publish(_ path: String) {
        merging.withLock { $0 }?.wrote(path)
        // A page written again after it was removed is no longer stale.
        state.withLock { s in if !s.stalePages.isEmpty { s.stalePages.removeAll { $0 == path } } }
        // The entry point goes last, once everything it links to is stored (see flush()).
        if path == GalleryNaming.indexPath {
            state.withLock { $0.entryPoint = true }
            return
        }
        enqueue { .put(path, $0) }
    }

    public func remove(_ path: String) {
        POSIX.remove(folder + "/" + path)
        // A merge deletes from the store once index.html no longer links to what it deletes.
        if let keys = merging.withLock({ $0 }) { return keys.removed(path) }
        if GalleryFileKind(path: path) == .page { return state.withLock { $0.stalePages.append(path) } }
        removeFromStore(path)
    }

    /// Queues the deletion of `path` from the store (its failure comes out of the next ``flush()``).
    func removeFromStore(_ path: String) { enqueue { .delete(path, $0) } }

    public func flush() async throws(GalleryError) {
        try await wait()
        if state.withLock({ s in defer { s.entryPoint = false }; return s.entryPoint }) {
            enqueue { .put(GalleryNaming.indexPath, $0) }
            try await wait()
        }
        // The stale pages last: whatever linked to them has been replaced by now (when the links did not
        // change, index.html was not handed over again and nothing links to them either).
        let stale = state.withLock { s in defer { s.stalePages = [] }; return s.stalePages }
        if !stale.isEmpty {
            for path in stale { removeFromStore(path) }
            try await wait()
        }
    }

    /// Waits for every upload queued before this call; throws the first failure.
    func wait() async throws(GalleryError) {
        let through = state.withLock { $0.next }
        await withHandOffContinuation { continuation in
            let ready = state.withLock { s -> Bool in
                if s.outstanding.allSatisfy({ $0 >= through }) { return true }
                s.waiters.append((through, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    public func materialize(_ path: String) async throws(GalleryError) -> Bool {
        if POSIX.fileSize(folder + "/" + path) != nil { return true }
        let data: [UInt8]?
        do { data = try await objects.get(path) } catch { throw .store(location: location, reason: error.description) }
        guard let data else { return false }
        try POSIX.makeDirectories(PathText.directory(folder + "/" + path))
        try AtomicFile.write(data, to: folder + "/" + path)
        return true
    }

    // MARK: uploads

    private func enqueue(_ job: (UInt64) -> Job) {
        let seq = state.withLock { s -> UInt64 in
            defer { s.next += 1 }
            s.outstanding.insert(s.next)
            return s.next
        }
        jobs.yield(job(seq))
    }

    private func perform(_ job: Job, folder: String) async {
        var failure: GalleryError?
        var stored: (path: String, size: Int64)?
        var sent: Int64 = 0
        let seq: UInt64
        switch job {
        case let .put(path, number):
            seq = number
            let kind = GalleryFileKind(path: path)
            let local = folder + "/" + path
            do {
                let size = POSIX.fileSize(local) ?? -1
                let options = ObjectPutOptions(contentType: GalleryFileKind.contentType(of: path), cacheControl: kind.cacheControl,
                                               ifAbsent: kind.isImmutable)
                let result = try await objects.put(file: local, as: path, options)
                if result == .created { sent = size }
                stored = (path, size)
                if kind.isImmutable { POSIX.remove(local) }
            } catch {
                failure = .store(location: location, reason: error.description)
            }
        case let .delete(path, number):
            seq = number
            do { try await objects.delete(path) } catch {
                failure = .store(location: location, reason: error.description)
            }
        }
        if let stored {
            let line = Array("\(stored.size)\t\(stored.path)\n".utf8)
            log.withLock { fd in _ = try? POSIX.writeAll(fd, line, path: Self.publishedPath) }
        }
        let ready = state.withLock { s -> [HandOffContinuation<Void, Never>] in
            if let stored {
                s.published[stored.path] = stored.size
                s.objectsUploaded += 1
                s.bytesUploaded += sent
            }
            if let failure, s.failure == nil { s.failure = failure }
            s.outstanding.remove(seq)
            let lowest = s.outstanding.min() ?? .max
            var ready: [HandOffContinuation<Void, Never>] = []
            s.waiters.removeAll { waiter in
                guard waiter.through <= lowest else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// The stored files and their sizes, as far as this store knows.
    var publishedFiles: [String: Int64] { state.withLock { $0.published } }

    /// Reads `published.tsv` into the known files; returns how many it names.
    func loadPublished() -> Int {
        guard let bytes = try? POSIX.readAll(folder + "/" + Self.publishedPath) else { return 0 }
        var found: [String: Int64] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")),
                  let size = Int64(String(decoding: line[..<tab], as: UTF8.self)) else { continue }
            found[String(decoding: line[(tab + 1)...], as: UTF8.self)] = size
        }
        state.withLock { s in s.published.merge(found) { _, new in new } }
        return found.count
    }
}

/// The gallery store of `s3://` locations, by its earlier name.
public typealias S3GalleryStore = ObjectGalleryStore
