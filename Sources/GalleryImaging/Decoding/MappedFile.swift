import GallerySystem
import Glibc

/// A file's bytes mapped read-only into memory, for decoding and hashing without copying them.
///
/// Reading an original into an array costs a fresh zero-filled allocation plus a copy out of the page
/// cache; a private read-only mapping (populated up front on Linux) reuses the page cache's own pages.
/// Map only files this process owns or trusts to stay put: a file truncated by another process while it is
/// mapped makes reading past its new end fault (SIGBUS).
public final class MappedFile: @unchecked Sendable {  // immutable after init; the mapping is read-only
    /// The path, for error messages.
    public let path: String
    private let region: MappedRegion
    /// The file's size in bytes when it was mapped.
    public var count: Int { region.count }

    /// Maps the regular file at `path`; errors name the path and the reason.
    public init(path: String) throws(DecodeError) {
        self.path = path
        let fd = try DecodeError.io { () throws(SystemError) in try Syscall.open(path, O_RDONLY) }
        defer { Syscall.closeQuietly(fd) }
        let info = try DecodeError.io { () throws(SystemError) in try Syscall.status(fd, path: path) }
        guard Syscall.isRegular(info) else { throw .io(name: path, reason: "not a regular file") }
        region = try DecodeError.io { () throws(SystemError) in
            try MappedRegion(fd: fd, count: Int(info.st_size), path: path)
        }
    }

    /// Calls `body` with the file's bytes; the buffer is valid only during the call.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: region.base, count: region.base == nil ? 0 : region.count))
    }
}
