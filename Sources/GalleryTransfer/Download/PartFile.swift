import Foundation

/// A file descriptor we write to, with errors as `TransferError` (`.fileSystem` carrying path and errno text).
/// Closed in `deinit` if the owner forgot, so no descriptor leaks on an error path.
final class PartFile {
    let path: String
    private var fd: Int32

    /// Opens for writing. `truncate` starts empty; otherwise the file is cut to `offset` and writing continues there,
    /// so bytes past a resume point (e.g. from a torn write) are never kept.
    init(path: String, truncate: Bool, offset: Int64 = 0) throws(TransferError) {
        self.path = path
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0)
        fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw Self.error(path) }
        if !truncate {
            guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
                let e = Self.error(path)
                close()
                throw e
            }
        }
    }

    deinit { close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TransferError) {
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Foundation.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(path)
            }
            left -= n
            p += n
        }
    }

    func write(_ bytes: [UInt8]) throws(TransferError) {
        // withUnsafeBytes rethrows untyped errors, so the typed error is carried out by hand.
        var failure: TransferError?
        bytes.withUnsafeBytes { p in
            do throws(TransferError) { try write(p) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func sync() throws(TransferError) {
        guard fsync(fd) == 0 else { throw Self.error(path) }
    }

    func close() {
        if fd >= 0 {
            Foundation.close(fd)
            fd = -1
        }
    }

    static func error(_ path: String) -> TransferError {
        TransferError(url: "", reason: .fileSystem(path: path, message: String(cString: strerror(errno))))
    }

    /// fsync of a directory makes a rename inside it durable.
    static func syncDirectory(of path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        let fd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            Foundation.close(fd)
        }
    }
}
