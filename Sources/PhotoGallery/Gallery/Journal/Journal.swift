import Foundation
import GallerySystem
import Glibc
import GallerySync

/// The run's append-only journal, `.fetch-gallery/journal.jsonl` in the gallery folder.
///
/// Why a journal: the run must survive SIGKILL at any instant without rewriting a JSON
/// file per photo. Each record is one JSON line written with a single `write(2)` on an
/// `O_APPEND` descriptor, so a kill leaves at most one torn last line, which replay
/// ignores. Opening replays the file, starts a fresh line after a torn one, and compacts
/// it (an atomic rewrite of the current state) when it has grown past the threshold and
/// holds records that later ones replaced (``SupersededRecords``).
///
/// Safe to use from many tasks: a lock (`Locked`) serialises appends and the in-memory index.
/// One process per gallery folder: a second `Journal` on the same folder fails with
/// `EWOULDBLOCK` from `flock(2)` on `.fetch-gallery/lock`.
public final class Journal: Sendable {
    /// How hard the journal tries to keep records across a power loss.
    public struct Options: Sendable, Hashable {
        /// `fsync` after every record. Off by default: a crash of the process loses
        /// nothing without it (the data is in the page cache); only a power loss can.
        public var fsyncEachRecord: Bool
        /// Compact when the file is larger than this many bytes, and larger than twice
        /// what the last compaction left (so a big state does not compact on every record),
        /// and holds records later ones replaced (a compaction of the others would only regroup them).
        public var compactionThreshold: Int

        /// Options; the defaults suit a normal run (no fsync per record, compaction past 4 MiB).
        public init(fsyncEachRecord: Bool = false, compactionThreshold: Int = 4 << 20) {
            self.fsyncEachRecord = fsyncEachRecord
            self.compactionThreshold = compactionThreshold
        }
    }

    private struct Storage {
        var fd: Int32
        /// A read-only descriptor of the same file, for reading entries back.
        var readFD: Int32
        var size: Int
        var sizeAfterCompaction: Int
        var index: JournalIndex
    }

    /// Path of the journal file.
    public let path: String
    /// How the journal writes.
    public let options: Options
    /// What replay found when the journal was opened: records, torn tail, skipped lines. Its `state`
    /// is left empty: the journal keeps only an index in memory (see ``state`` and ``entry(of:)``).
    public let replay: JournalReplay
    private let lockFD: Int32
    private let storage: Locked<Storage>

    /// Opens (or creates) the journal of the gallery at `folder` and replays it. `journalPath`
    /// (relative to `folder`) is where it lives: a shard keeps its own (``ShardLayout``), with
    /// its own lock beside it, so shards of one job run at once in one folder.
    ///
    /// Replay reads the file a chunk at a time and keeps, per photo, where its records are (about 44
    /// bytes once compacted, see ``JournalIndex``), not the records themselves: memory does not grow
    /// with what the photos carry.
    public init(folder: String, journalPath: String = GalleryNaming.journalPath,
                options: Options = Options()) throws(GalleryError) {
        path = folder + "/" + journalPath
        self.options = options
        let directory = PathText.directory(path)
        try POSIX.makeDirectories(directory)
        let lockPath = directory + "/lock"
        lockFD = try POSIX.open(lockPath, O_RDWR | O_CREAT)
        do throws(GalleryError) { try POSIX.lockExclusively(lockFD, path: lockPath) } catch {
            POSIX.closeQuietly(lockFD)
            throw error
        }
        // A kill during compaction can leave its temporary file; with the lock held no one
        // else can be writing one, so any left here is garbage.
        Self.removeStaleTemporaries(in: directory)
        do throws(GalleryError) {
            let (index, replay) = try Self.scan(path: path)
            self.replay = replay
            let fd = try POSIX.open(path, O_WRONLY | O_CREAT | O_APPEND)
            let readFD: Int32
            let size: Int
            do throws(GalleryError) {
                if replay.needsNewline {
                    // Fence off a torn line so the next record starts on a line of its own.
                    try POSIX.writeAll(fd, [UInt8(ascii: "\n")], path: path)
                }
                size = try POSIX.size(fd, path: path)
                readFD = try POSIX.open(path, O_RDONLY)
            } catch {
                POSIX.closeQuietly(fd)
                throw error
            }
            storage = Locked(Storage(fd: fd, readFD: readFD, size: size, sizeAfterCompaction: 0, index: index))
        } catch {
            POSIX.closeQuietly(lockFD)
            throw error
        }
        try compactIfNeeded()
    }

    deinit {
        storage.withLock { storage in
            if storage.fd >= 0 { POSIX.closeQuietly(storage.fd) }
            if storage.readFD >= 0 { POSIX.closeQuietly(storage.readFD) }
        }
        POSIX.closeQuietly(lockFD)
    }

    /// The state as of the last record appended, read back from the file: every entry in memory at
    /// once, for tests and small galleries. A run reads one entry at a time (``entry(of:)``,
    /// ``forEachEntry(byPage:parallel:_:)``).
    public var state: GalleryState {
        var state = GalleryState()
        try? forEachEntry { entry throws(GalleryError) in
            for record in entry.compactedRecords { state.apply(record) }
        }
        return state
    }

    /// Photos seen so far.
    public var count: Int {
        storage.withLock { $0.index.count }
    }

    /// Whether photo `id` has any record (a lookup in the index: nothing is read from the file).
    public func contains(_ id: Int) -> Bool {
        storage.withLock { $0.index.slot(of: id) != nil }
    }

    /// What the journal knows about photo `id` as of the last record appended, or nil: its records,
    /// read back from the file and replayed.
    public func entry(of id: Int) -> GalleryState.Entry? {
        storage.withLock { storage in
            storage.index.slot(of: id).map { Self.read(id: id, storage.index.refs(ofSlot: $0), fd: storage.readFD) }
        }
    }

    /// Calls `body` with every photo's entry, in first-seen order or (`byPage`) stably sorted by
    /// listing page, reading one entry at a time from the file. Appends wait until it returns.
    public func forEachEntry(byPage: Bool = false, parallel: any ParallelRunner = DispatchParallel(),
                             _ body: (GalleryState.Entry) throws(GalleryError) -> Void) throws(GalleryError) {
        try withStorage { (storage: inout Storage) throws(GalleryError) in
            // Decoded a batch at a time by `parallel` (the records' JSON is most of the cost of
            // reading a gallery back), handed to `body` one at a time, in order.
            var batch: [(id: Int, refs: [RecordRef])] = []
            batch.reserveCapacity(Self.readBatch)
            let fd = storage.readFD
            func flush() throws(GalleryError) {
                let items = batch
                let entries = parallel.map(items.count) { i in Self.read(id: items[i].id, items[i].refs, fd: fd) }
                batch.removeAll(keepingCapacity: true)
                for entry in entries { try body(entry) }
            }
            for slot in storage.index.slots(byPage: byPage).lazy.map(Int.init) {
                batch.append((storage.index.order[slot], storage.index.refs(ofSlot: slot)))
                if batch.count == Self.readBatch { try flush() }
            }
            try flush()
        }
    }

    /// Entries decoded together by ``forEachEntry(byPage:parallel:_:)``: enough to keep every core busy,
    /// few enough that memory does not grow with the gallery.
    static let readBatch = 256

    /// Size of the journal file in bytes.
    public var size: Int {
        storage.withLock { $0.size }
    }

    /// Appends `record` with one `write(2)`, then compacts if the file has grown too big.
    public func append(_ record: JournalRecord) throws(GalleryError) {
        try append(contentsOf: [record])
    }

    /// Appends `records` (one line each, in order) with one `write(2)`, then compacts if the file has
    /// grown too big. The lines are encoded before the lock is taken, by the calling thread.
    public func append(contentsOf records: [JournalRecord]) throws(GalleryError) {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        var lengths: [Int] = []
        for record in records {
            let line = try Self.encodeLine(record, path: path)
            bytes += line
            lengths.append(line.count)
        }
        try withStorage { (storage: inout Storage) throws(GalleryError) in
            guard storage.fd >= 0 else { throw .system(call: "write", path: path, errno: EBADF) }
            try POSIX.writeAll(storage.fd, bytes, path: path)
            if options.fsyncEachRecord { try POSIX.fsync(storage.fd, path: path) }
            for (record, length) in zip(records, lengths) {
                storage.index.add(record, at: RecordRef(offset: Int64(storage.size), length: Int32(length - 1)))
                storage.size += length
            }
        }
        try compactIfNeeded()
    }

    /// Rewrites the journal as the shortest record list for the current state, atomically.
    public func compact() throws(GalleryError) {
        try withStorage { (storage: inout Storage) throws(GalleryError) in try compact(&storage) }
    }

    /// Compacts when that would drop anything (``SupersededRecords``): a record a later one replaced, or a
    /// line that could not be read. A journal whose every record still counts (a first run's, usually) is
    /// left as written, the same records: rewriting it would read back and re-encode every one of them only
    /// to group each photo's together (the growth threshold skips it for the same reason).
    public func compactIfSuperseded() throws(GalleryError) {
        try withStorage { (storage: inout Storage) throws(GalleryError) in
            if storage.index.superseded.any { try compact(&storage) }
        }
    }

    /// Whether a compaction would drop anything now (tests).
    var holdsSuperseded: Bool { storage.withLock { $0.index.superseded.any } }

    private func compactIfNeeded() throws(GalleryError) {
        try withStorage { (storage: inout Storage) throws(GalleryError) in
            if storage.size > options.compactionThreshold && storage.size > 2 * storage.sizeAfterCompaction
                && storage.index.superseded.any {
                try compact(&storage)
            }
        }
    }

    /// Streams the compacted records into a new file (one entry in memory at a time) and renames it
    /// over the journal; the index then points into the new file, one run of lines per photo.
    private func compact(_ storage: inout Storage) throws(GalleryError) {
        let file = try StreamedFile(path: path)
        var runs: [RecordRef] = []
        runs.reserveCapacity(storage.index.count)
        // A batch of entries at a time is read, replayed and encoded on every core (the appends wait
        // for the lock meanwhile, so the sooner the better), then written in order.
        let (fd, path) = (storage.readFD, self.path)
        var start = 0
        while start < storage.index.count {
            let items = (start..<min(start + Self.readBatch, storage.index.count)).map { slot in
                (id: storage.index.order[slot], refs: storage.index.refs(ofSlot: slot))
            }
            start += items.count
            let lines = DispatchParallel().map(items.count) { i -> Result<[UInt8], GalleryError> in
                var run: [UInt8] = []
                for record in Self.read(id: items[i].id, items[i].refs, fd: fd).compactedRecords {
                    do throws(GalleryError) { run += try Self.encodeLine(record, path: path) } catch { return .failure(error) }
                }
                return .success(run)
            }
            for run in lines {
                let bytes = try run.get()
                // Every entry compacts to at least its `seen` record, so a run is never empty.
                runs.append(RecordRef(offset: Int64(file.size), length: Int32(clamping: bytes.count - 1)))
                try file.write(bytes)
            }
        }
        let size = file.size
        try file.commit(durable: options.fsyncEachRecord)
        // The old descriptors point at the replaced inode; appends must go to the new file,
        // and if it cannot be opened, to nowhere (they fail) rather than to the old inode.
        POSIX.closeQuietly(storage.fd)
        POSIX.closeQuietly(storage.readFD)
        storage.fd = -1
        storage.readFD = -1
        storage.index.replaceRuns(with: runs)
        storage.fd = try POSIX.open(path, O_WRONLY | O_APPEND)
        storage.readFD = try POSIX.open(path, O_RDONLY)
        storage.size = size
        storage.sizeAfterCompaction = size
    }

    /// Runs `body` under the lock, carrying its typed error out.
    private func withStorage(_ body: (inout Storage) throws(GalleryError) -> Void) throws(GalleryError) {
        let result: Result<Void, GalleryError> = storage.withLock { storage in
            do throws(GalleryError) {
                try body(&storage)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
