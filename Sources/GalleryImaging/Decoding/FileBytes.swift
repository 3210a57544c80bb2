import GallerySystem
import Glibc

/// Whole-file reads: images are small next to their pixels, one read is the simplest fast path, and a
/// failed call becomes a typed error naming the file (GallerySystem's `Syscall` makes the calls).
enum FileBytes {
    static func read(_ path: String) throws(DecodeError) -> [UInt8] {
        let fd = try DecodeError.io { () throws(SystemError) in try Syscall.open(path, O_RDONLY) }
        defer { Syscall.closeQuietly(fd) }
        let info = try DecodeError.io { () throws(SystemError) in try Syscall.status(fd, path: path) }
        guard Syscall.isRegular(info) else { throw .io(name: path, reason: "not a regular file") }
        // Fewer bytes when the file shrank while being read: decode what is there.
        return try DecodeError.io { () throws(SystemError) in try Syscall.read(fd, count: Int(info.st_size), path: path) }
    }
}

extension DecodeError {
    /// Runs `body`, a failed system call as `.io` naming the file and `strerror`'s reason.
    static func io<T>(_ body: () throws(SystemError) -> T) throws(DecodeError) -> T {
        do throws(SystemError) { return try body() } catch { throw .io(name: error.path, reason: error.message) }
    }
}
