import Glibc

/// A regular file mapped read-only into memory (`mmap(2)`), unmapped when dropped.
///
/// A private read-only mapping, populated up front, reuses the page cache's own pages where reading into
/// an array costs a zero-filled allocation and a copy. Map only files this process owns or trusts to stay
/// put: a file truncated by another process while it is mapped makes reading past its new end fault (SIGBUS).
public final class MappedRegion: @unchecked Sendable {  // immutable after init; the mapping is read-only
    /// The start of the mapping; nil for an empty file (`mmap` refuses a zero length).
    public let base: UnsafeMutableRawPointer?
    /// The file's size when it was mapped.
    public let count: Int

    /// Maps the first `count` bytes of the file open at `fd` (opened from `path`, named in errors). The
    /// mapping outlives the descriptor, which the caller closes.
    public init(fd: Int32, count: Int, path: String) throws(SystemError) {
        self.count = count
        guard count > 0 else {
            base = nil
            return
        }
        let p = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)
        guard let p, p != MAP_FAILED else { throw .last("mmap", path) }
        base = p
    }

    deinit {
        if let base { munmap(base, count) }
    }
}
