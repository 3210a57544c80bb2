import Glibc
import GallerySystem

/// The gallery writer's file calls: GallerySystem's checked wrappers (`Syscall`), with their errors as
/// `GalleryError.system` naming the call and the path. This layer adds no system call of its own.
enum POSIX {
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(GalleryError) -> Int32 {
        try gallery { () throws(SystemError) in try Syscall.open(path, flags, mode: mode) }
    }

    /// Writes all of `bytes` (see `Syscall.writeAll`).
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.writeAll(fd, bytes, path: path) }
    }

    /// `writeAll` for an array.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.writeAll(fd, bytes, path: path) }
    }

    /// Writes all of `bytes` at `offset`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64, path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.writeAll(fd, bytes, at: offset, path: path) }
    }

    /// `count` bytes at `offset`, or fewer where the file ends sooner.
    static func read(_ fd: Int32, count: Int, at offset: Int64, path: String) throws(GalleryError) -> [UInt8] {
        try gallery { () throws(SystemError) in try Syscall.read(fd, count: count, at: offset, path: path) }
    }

    /// The whole file at `path`, or nil when it does not exist.
    static func readAll(_ path: String) throws(GalleryError) -> [UInt8]? {
        try gallery { () throws(SystemError) in try Syscall.readAll(path) }
    }

    static func fsync(_ fd: Int32, path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.fsync(fd, path: path) }
    }

    static func close(_ fd: Int32, path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.close(fd, path: path) }
    }

    /// Closes `fd` where a failure changes nothing (an error path, a `deinit`, a read-only descriptor).
    static func closeQuietly(_ fd: Int32) { Syscall.closeQuietly(fd) }

    static func rename(_ from: String, _ to: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.rename(from, to) }
    }

    /// Creates `path` and its parents; an existing directory is fine.
    static func makeDirectories(_ path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.makeDirectories(path) }
    }

    /// Takes the folder's exclusive lock on `fd` without waiting; another holder throws `EWOULDBLOCK`.
    static func lockExclusively(_ fd: Int32, path: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.lockExclusively(fd, path: path) }
    }

    /// Makes renames inside `directory` durable.
    static func syncDirectory(_ directory: String) throws(GalleryError) {
        try gallery { () throws(SystemError) in try Syscall.syncDirectory(directory) }
    }

    /// The size of the regular file at `path`, or nil when there is none (or it is not a regular file).
    static func fileSize(_ path: String) -> Int64? { Syscall.fileSize(path) }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool { Syscall.exists(path) }

    /// Deletes the file at `path`; returns whether there was one to delete (best effort).
    @discardableResult
    static func remove(_ path: String) -> Bool { Syscall.remove(path) }

    /// Creates the folder `path` (its parent must exist); an existing one is fine, other failures are left
    /// to the write into it, which names the path.
    static func makeDirectory(_ path: String) { Syscall.makeDirectory(path) }

    /// The names in the folder `path` (nil when it cannot be read).
    static func names(in path: String) -> [String]? { try? Syscall.names(in: path) }

    /// Size of the file at `fd`.
    static func size(_ fd: Int32, path: String) throws(GalleryError) -> Int {
        try gallery { () throws(SystemError) in try Syscall.size(fd, path: path) }
    }

    /// Runs `body`, its `SystemError` as this layer's error.
    static func gallery<T>(_ body: () throws(SystemError) -> T) throws(GalleryError) -> T {
        do throws(SystemError) { return try body() } catch { throw GalleryError(error) }
    }
}

extension GalleryError {
    /// A failed system call as the gallery's error.
    init(_ failure: SystemError) {
        self = .system(call: failure.call, path: failure.path, errno: failure.errno)
    }
}
