import Foundation
import GallerySystem

/// A file descriptor we write to, with errors as `TransferError` (`.fileSystem` carrying path and errno text).
/// Closed in `deinit` if the owner forgot, so no descriptor leaks on an error path.
final class PartFile {
    let path: String
    private var fd: Int32

    /// Opens for writing. `truncate` starts empty; otherwise the file is cut to `offset` and writing continues there,
    /// so bytes past a resume point (e.g. from a torn write) are never kept.
    init(path: String, truncate: Bool, offset: Int64 = 0) throws(TransferError) {
        self.path = path
        do throws(SystemError) {
            fd = try Syscall.open(path, O_WRONLY | O_CREAT | (truncate ? O_TRUNC : 0))
        } catch {
            throw Self.error(error)
        }
        if !truncate {
            do throws(SystemError) { try Syscall.truncate(fd, to: offset, path: path) } catch {
                close()
                throw Self.error(error)
            }
        }
    }

    deinit { close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TransferError) {
        do throws(SystemError) { try Syscall.writeAll(fd, bytes, path: path) } catch { throw Self.error(error) }
    }

    func write(_ bytes: [UInt8]) throws(TransferError) {
        do throws(SystemError) { try Syscall.writeAll(fd, bytes, path: path) } catch { throw Self.error(error) }
    }

    func sync() throws(TransferError) {
        do throws(SystemError) { try Syscall.fsync(fd, path: path) } catch { throw Self.error(error) }
    }

    func close() {
        if fd >= 0 {
            Syscall.closeQuietly(fd)
            fd = -1
        }
    }

    /// A failed system call as this layer's error: the path and `strerror`'s text.
    static func error(_ failure: SystemError) -> TransferError {
        TransferError(url: "", reason: .fileSystem(path: failure.path, message: failure.message))
    }

    /// fsync of a directory makes a rename inside it durable.
    static func syncDirectory(of path: String) { Syscall.syncDirectoryQuietly(of: path) }
}
