import Foundation
import GallerySync
import GallerySystem
import GalleryTransfer

/// Where a dataset run's large downloaded bodies wait for a worker: a body over ``memoryLimit`` (512 KiB
/// unless ``DatasetOptions/bodyMemoryLimit`` says otherwise) is written to
/// a file of its own as it arrives (``BodySpool``) and decoded from that file mapped, so a row in flight holds
/// at most ``memoryLimit`` bytes of body in memory whatever the image's size; smaller bodies (most JPEGs) stay
/// in memory, where they cost no file. Each process spools in a folder of its own under `base`
/// (`PID-RANDOM`), beside a lock file it holds while it runs; a folder whose lock nobody holds was left by a
/// process that died, and the next run removes it. Each row's file is removed when the row is done.
final class RowSpool: Sendable {
    /// The bodies larger than this go to a file.
    let memoryLimit: Int
    /// This process's folder.
    let folder: String
    let base: String
    private let lockPath: String
    private let lock: Locked<Int32>
    private let next = Locked(0)

    /// Where a run writing into a local folder spools (inside it; removed when the run ends).
    static let folderName = ".fetch-gallery-spool"

    /// Removes what dead processes left under `base`, then makes this process's folder there.
    init(base: String, memoryLimit: Int) throws(DatasetError) {
        let name = "\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let (folder, lockPath) = (base + "/" + name, base + "/" + name + ".lock")
        var fd: Int32 = -1
        do throws(SystemError) {
            // Another process of a --shard K/N run may remove `base` (empty as it ends) between the two calls,
            // or, cleaning up as it starts, find the new lock file before it is locked, take it for a dead
            // process's and remove it: a lock no longer at `lockPath` protects nothing, so it is made again.
            for attempt in 1...5 where fd < 0 {
                try Syscall.makeDirectories(base)
                do throws(SystemError) { fd = try Syscall.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC) } catch where error.errno == ENOENT && attempt < 5 {}
                guard fd >= 0 else { continue }
                // Held: by such a process, at this instant (the last attempt's failure is the run's).
                do throws(SystemError) { try Syscall.lockExclusively(fd, path: lockPath) } catch {
                    Syscall.closeQuietly(fd)
                    fd = -1
                    if attempt == 5 { throw error }
                    continue
                }
                if attempt < 5, !Self.isStill(fd, at: lockPath) {
                    Syscall.closeQuietly(fd)
                    fd = -1
                }
            }
            do throws(SystemError) {
                Self.removeLeftovers(in: base, except: name)
                try Syscall.makeDirectories(folder)
            } catch {
                Syscall.closeQuietly(fd)
                _ = Syscall.remove(lockPath)
                throw error
            }
        } catch {
            throw .output("cannot make the download spool folder \(folder): \(error)")
        }
        self.base = base
        self.memoryLimit = memoryLimit
        self.folder = folder
        self.lockPath = lockPath
        lock = Locked(fd)
    }

    /// A new file name for one row's body.
    func spool() -> BodySpool {
        let n = next.withLock { n in
            n += 1
            return n
        }
        return BodySpool(path: folder + "/\(n).body", memoryLimit: memoryLimit)
    }

    /// Removes a row's file (it may never have been made: the body stayed in memory or never came).
    func remove(_ spool: BodySpool) { _ = Syscall.remove(spool.path) }

    /// Removes this process's folder and lock, and `base` when no other process spools there.
    func close() {
        let fd: Int32 = lock.withLock { fd in
            defer { fd = -1 }
            return fd
        }
        guard fd >= 0 else { return }
        try? FileManager.default.removeItem(atPath: folder)
        _ = Syscall.remove(lockPath)
        Syscall.closeQuietly(fd)
        Syscall.removeEmptyDirectory(base)
    }

    deinit { close() }

    /// Whether `path` still names the file open at `fd` (same device and inode).
    static func isStill(_ fd: Int32, at path: String) -> Bool {
        guard let open = try? Syscall.status(fd, path: path), let named = Syscall.status(path) else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The folders under `base` no live process holds (their lock file is free or gone), and their locks.
    static func removeLeftovers(in base: String, except own: String) {
        guard let names = try? Syscall.names(in: base) else { return }
        for name in names where !name.hasSuffix(".lock") && name != own {
            let lockPath = base + "/" + name + ".lock"
            if let fd = try? Syscall.openIfPresent(lockPath, O_RDWR | O_CLOEXEC) {
                defer { Syscall.closeQuietly(fd) }
                // Held: a live process spools there.
                guard (try? Syscall.lockExclusively(fd, path: lockPath)) != nil else { continue }
                try? FileManager.default.removeItem(atPath: base + "/" + name)
                _ = Syscall.remove(lockPath)
            } else {
                try? FileManager.default.removeItem(atPath: base + "/" + name)
            }
        }
        // Lock files without a folder (a process killed before it made its folder, or after removing it).
        for name in names where name.hasSuffix(".lock") && name != own + ".lock" && !names.contains(String(name.dropLast(5))) {
            let lockPath = base + "/" + name
            guard let fd = try? Syscall.openIfPresent(lockPath, O_RDWR | O_CLOEXEC) else { continue }
            defer { Syscall.closeQuietly(fd) }
            if (try? Syscall.lockExclusively(fd, path: lockPath)) != nil { _ = Syscall.remove(lockPath) }
        }
    }
}

/// A downloaded body: in memory, or in a spool file (see ``RowSpool``).
enum RowBody: Sendable {
    case memory([UInt8])
    case file(String)
}
