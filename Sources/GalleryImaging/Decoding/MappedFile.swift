#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A file's bytes mapped read-only into memory, for decoding and hashing without copying them.
///
/// Reading an original into an array costs a fresh zero-filled allocation plus a copy out of the page
/// cache; a private read-only mapping (populated up front on Linux) reuses the page cache's own pages.
/// Map only files this process owns or trusts to stay put: a file truncated by another process while it is
/// mapped makes reading past its new end fault (SIGBUS).
public final class MappedFile: @unchecked Sendable {  // immutable after init; the mapping is read-only
    /// The path, for error messages.
    public let path: String
    private let base: UnsafeMutableRawPointer?
    /// The file's size in bytes when it was mapped.
    public let count: Int

    /// Maps the regular file at `path`; errors name the path and the reason.
    public init(path: String) throws(DecodeError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(name: path, reason: Self.errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(name: path, reason: Self.errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .io(name: path, reason: "not a regular file") }
        count = Int(info.st_size)
        guard count > 0 else {  // mmap refuses a zero length; an empty file is simply no bytes
            base = nil
            return
        }
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE
        #endif
        let p = mmap(nil, count, PROT_READ, flags, fd, 0)
        guard let p, p != MAP_FAILED else { throw .io(name: path, reason: Self.errnoText()) }
        base = p
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// Calls `body` with the file's bytes; the buffer is valid only during the call.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
