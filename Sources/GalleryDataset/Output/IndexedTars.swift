import Foundation
import DatasetFormats
import GallerySystem

/// Where ``ShardIndexes`` finds a webdataset's tars, the one difference between a folder and a store for its
/// updates: in a folder a tar's file tells its size and time (whether the entry known for it still holds) and
/// can be read back, and the updates of a `--shard K/N` run's processes take turns under a lock; in a store
/// nothing is read back, and an entry known (a tar this process wrote, or one adopted from the store's
/// `shardindex.json`) holds.
struct IndexedTars {
    /// The dataset's local folder; nil for a store.
    let folder: String?

    /// A tar's size and modification time as an update finds them; in a store, neither is known (`size` nil).
    struct Stamp {
        var size: Int?
        var modified: [Int]

        /// Whether `entry` still describes the tar: the same size and time (always, in a store).
        func holds(_ entry: ShardIndexes.Entry) -> Bool {
            size.map { $0 == entry.fileSize && modified == entry.modified } ?? true
        }
    }

    /// Whether a tar is read back when its entry no longer holds, or is missing (a folder's).
    var readsBack: Bool { folder != nil }

    /// Where `tar` is, for messages.
    func path(_ tar: String) -> String { folder.map { $0 + "/" + tar } ?? tar }

    /// The tar's stamp: in a folder nil when it holds no such regular file; in a store an empty one.
    func stamp(_ tar: String) -> Stamp? {
        guard let folder else { return Stamp(size: nil, modified: []) }
        guard let status = Syscall.regularFileStatus(folder + "/" + tar) else { return nil }
        return Stamp(size: Int(status.st_size), modified: [Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)])
    }

    /// The tar read back for its entry and `.idx` (see ``ShardIndexes/read(_:size:modified:)``); nil when it is not a
    /// tar the walker can read, or in a store.
    func read(_ tar: String, _ stamp: Stamp) -> (ShardIndexes.Entry, String?)? {
        guard let folder, let size = stamp.size else { return nil }
        return ShardIndexes.read(folder + "/" + tar, size: size, modified: stamp.modified)
    }

    /// In a folder, waits for and takes the lock every process's update holds (``ShardIndexes/lockName``): its
    /// descriptor, for the caller to close. Nil in a store, which one process's run end writes.
    func lock() throws(DatasetFormatError) -> Int32? {
        guard let folder else { return nil }
        let path = folder + "/" + ShardIndexes.lockName
        do throws(SystemError) {
            let fd = try Syscall.open(path, O_RDWR | O_CREAT | O_CLOEXEC)
            do throws(SystemError) { try Syscall.lockExclusivelyWaiting(fd, path: path) } catch {
                Syscall.closeQuietly(fd)
                throw error
            }
            return fd
        } catch {
            throw .io(path: path, operation: error.call, errno: error.errno)
        }
    }
}
