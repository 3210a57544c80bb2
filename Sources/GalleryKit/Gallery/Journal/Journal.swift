import Foundation
import Glibc
import GallerySync

/// The run's append-only journal, `.fetch-gallery/journal.jsonl` in the gallery folder.
///
/// Why a journal: the run must survive SIGKILL at any instant without rewriting a JSON
/// file per photo. Each record is one JSON line written with a single `write(2)` on an
/// `O_APPEND` descriptor, so a kill leaves at most one torn last line, which replay
/// ignores. Opening replays the file, starts a fresh line after a torn one, and compacts
/// it (an atomic rewrite of the current state) when it has grown past the threshold.
///
/// Safe to use from many tasks: a lock (`Locked`) serialises appends and the in-memory state.
/// One process per gallery folder: a second `Journal` on the same folder fails with
/// `EWOULDBLOCK` from `flock(2)` on `.fetch-gallery/lock`.
public final class Journal: Sendable {
    /// How hard the journal tries to keep records across a power loss.
    public struct Options: Sendable, Hashable {
        /// `fsync` after every record. Off by default: a crash of the process loses
        /// nothing without it (the data is in the page cache); only a power loss can.
        public var fsyncEachRecord: Bool
        /// Compact when the file is larger than this many bytes, and larger than twice
        /// what the last compaction left (so a big state does not compact on every record).
        public var compactionThreshold: Int

        /// Options; the defaults suit a normal run (no fsync per record, compaction past 4 MiB).
        public init(fsyncEachRecord: Bool = false, compactionThreshold: Int = 4 << 20) {
            self.fsyncEachRecord = fsyncEachRecord
            self.compactionThreshold = compactionThreshold
        }
    }

    private struct Storage {
        var fd: Int32
        var size: Int
        var sizeAfterCompaction: Int
        var state: GalleryState
    }

    /// Path of the journal file.
    public let path: String
    /// How the journal writes.
    public let options: Options
    /// What replay found when the journal was opened.
    public let replay: JournalReplay
    private let lockFD: Int32
    private let storage: Locked<Storage>

    /// Opens (or creates) the journal of the gallery at `folder` and replays it. `journalPath`
    /// (relative to `folder`) is where it lives: a shard keeps its own (``ShardLayout``), with
    /// its own lock beside it, so shards of one job run at once in one folder.
    public init(folder: String, journalPath: String = GalleryNaming.journalPath,
                options: Options = Options()) throws(GalleryError) {
        path = folder + "/" + journalPath
        self.options = options
        let directory = (path as NSString).deletingLastPathComponent
        try POSIX.makeDirectories(directory)
        let lockPath = directory + "/lock"
        lockFD = try POSIX.open(lockPath, O_RDWR | O_CREAT)
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            _ = Glibc.close(lockFD)
            throw .system(call: "flock", path: lockPath, errno: code)
        }
        // A kill during compaction can leave its temporary file; with the lock held no one
        // else can be writing one, so any left here is garbage.
        Self.removeStaleTemporaries(in: directory)
        do throws(GalleryError) {
            replay = try JournalReplay.read(path: path)
            let fd = try POSIX.open(path, O_WRONLY | O_CREAT | O_APPEND)
            let size: Int
            do throws(GalleryError) {
                if replay.needsNewline {
                    // Fence off a torn line so the next record starts on a line of its own.
                    try POSIX.writeAll(fd, [UInt8(ascii: "\n")], path: path)
                }
                size = try POSIX.size(fd, path: path)
            } catch {
                _ = Glibc.close(fd)
                throw error
            }
            storage = Locked(Storage(fd: fd, size: size, sizeAfterCompaction: 0, state: replay.state))
        } catch {
            _ = Glibc.close(lockFD)
            throw error
        }
        try compactIfNeeded()
    }

    deinit {
        storage.withLock { storage in
            if storage.fd >= 0 { _ = Glibc.close(storage.fd) }
        }
        _ = Glibc.close(lockFD)
    }

    /// The state as of the last record appended.
    ///
    /// A copy that shares the state's storage until the next append, which then copies every entry:
    /// per photo, ask for ``entry(of:)`` instead.
    public var state: GalleryState {
        storage.withLock { $0.state }
    }

    /// What the journal knows about photo `id` as of the last record appended, or nil. Copies one entry,
    /// so the state's storage stays unshared and the next append changes it in place (reading the whole
    /// ``state`` for each photo made every append copy all entries: quadratic in the photo count).
    public func entry(of id: Int) -> GalleryState.Entry? {
        storage.withLock { $0.state.entries[id] }
    }

    /// Size of the journal file in bytes.
    public var size: Int {
        storage.withLock { $0.size }
    }

    /// Appends `record` with one `write(2)`, then compacts if the file has grown too big.
    public func append(_ record: JournalRecord) throws(GalleryError) {
        let line = try Self.encodeLine(record, path: path)
        try withStorage { (storage: inout Storage) throws(GalleryError) in
            guard storage.fd >= 0 else { throw .system(call: "write", path: path, errno: EBADF) }
            try POSIX.writeAll(storage.fd, line, path: path)
            if options.fsyncEachRecord { try POSIX.fsync(storage.fd, path: path) }
            storage.size += line.count
            storage.state.apply(record)
        }
        try compactIfNeeded()
    }

    /// Rewrites the journal as the shortest record list for the current state, atomically.
    public func compact() throws(GalleryError) {
        try withStorage { (storage: inout Storage) throws(GalleryError) in try compact(&storage) }
    }

    private func compactIfNeeded() throws(GalleryError) {
        try withStorage { (storage: inout Storage) throws(GalleryError) in
            if storage.size > options.compactionThreshold && storage.size > 2 * storage.sizeAfterCompaction {
                try compact(&storage)
            }
        }
    }

    private func compact(_ storage: inout Storage) throws(GalleryError) {
        var bytes: [UInt8] = []
        for record in storage.state.compactedRecords {
            bytes += try Self.encodeLine(record, path: path)
        }
        try AtomicFile.write(bytes, to: path, durable: options.fsyncEachRecord)
        // The old descriptor points at the replaced inode; appends must go to the new file,
        // and if it cannot be opened, to nowhere (they fail) rather than to the old inode.
        _ = Glibc.close(storage.fd)
        storage.fd = -1
        storage.fd = try POSIX.open(path, O_WRONLY | O_APPEND)
        storage.size = bytes.count
        storage.sizeAfterCompaction = bytes.count
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

    private static func removeStaleTemporaries(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(AtomicFile.temporaryPrefix) && name.hasSuffix(".tmp") {
            unlink(directory + "/" + name)
        }
    }

    /// One record as a JSON line. JSONEncoder escapes control characters inside strings,
    /// so the only newline in the output is the terminator.
    static func encodeLine(_ record: JournalRecord, path: String) throws(GalleryError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(record)) + [UInt8(ascii: "\n")]
        } catch {
            throw .encoding(path: path, reason: String(describing: error))
        }
    }
}
