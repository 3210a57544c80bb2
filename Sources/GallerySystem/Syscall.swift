import Glibc

/// Every file system call the project makes, each checked: `-1` + `errno` becomes a ``SystemError`` naming
/// the call and the path, and a call interrupted by a signal (`EINTR`) is made again. The other modules call
/// these, never libc's file functions (`Scripts/check-system-layer` holds them to it), in the way swift-nio's
/// `System.swift` sends every call through one wrapper.
///
/// Descriptors are plain `Int32`s opened with `O_CLOEXEC`, so a child process (nginx, the test cluster)
/// never inherits one.
public enum Syscall {
    /// Opens `path`; `O_CLOEXEC` is added.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .last("open", path) }
        }
    }

    /// ``open(_:_:mode:)``, or nil when `path` does not exist (`ENOENT`).
    public static func openIfPresent(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> Int32? {
        do throws(SystemError) { return try open(path, flags, mode: mode) } catch where error.errno == ENOENT { return nil }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw .last("read", path) }
        }
    }

    /// Reads up to `count` bytes at `offset` (fewer only at the end of the file), leaving the file position alone.
    public static func read(_ fd: Int32, count: Int, at offset: Int64, path: String) throws(SystemError) -> [UInt8] {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = Glibc.pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = .last("pread", path); break }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads `count` bytes from the file position, or fewer where the file ends sooner.
    public static func read(_ fd: Int32, count: Int, path: String) throws(SystemError) -> [UInt8] {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = Glibc.read(fd, buffer.baseAddress! + done, count - done)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = .last("read", path); break }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }

    /// The whole file at `path`, or nil when it does not exist.
    public static func readAll(_ path: String) throws(SystemError) -> [UInt8]? {
        guard let fd = try openIfPresent(path, O_RDONLY) else { return nil }
        defer { closeQuietly(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withMutableBytes { raw throws(SystemError) in try read(fd, into: raw, path: path) }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }

    /// Writes all of `bytes` at the file position. One `write(2)` in the normal case; it loops only on a
    /// short write or EINTR, which a regular file gives only when the disk is nearly full.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .last("write", path)
            }
            offset += n
        }
    }

    /// ``writeAll(_:_:path:)-(_,UnsafeRawBufferPointer,_)`` for an array.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        try bytes.withBytes { raw throws(SystemError) in try writeAll(fd, raw, path: path) }
    }

    /// Writes all of `bytes` at `offset`, leaving the file position alone.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64, path: String) throws(SystemError) {
        try bytes.withBytes { raw throws(SystemError) in
            var done = 0
            while done < raw.count {
                let n = Glibc.pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw .last("pwrite", path)
                }
                done += n
            }
        }
    }

    /// Flushes the file's data and metadata to the disk.
    public static func fsync(_ fd: Int32, path: String) throws(SystemError) {
        while Glibc.fsync(fd) != 0 {
            if errno != EINTR { throw .last("fsync", path) }
        }
    }

    /// Closes `fd`. Linux closes the descriptor even when close(2) reports EINTR: never retried.
    public static func close(_ fd: Int32, path: String) throws(SystemError) {
        if Glibc.close(fd) != 0 && errno != EINTR { throw .last("close", path) }
    }

    /// Closes `fd` where nothing can be done about a failure (an error path, a `deinit`, a read-only file).
    public static func closeQuietly(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Cuts (or extends) the file to `size` bytes and moves the file position there.
    public static func truncate(_ fd: Int32, to size: Int64, path: String) throws(SystemError) {
        while Glibc.ftruncate(fd, off_t(size)) != 0 {
            if errno != EINTR { throw .last("ftruncate", path) }
        }
        if lseek(fd, off_t(size), SEEK_SET) < 0 { throw .last("lseek", path) }
    }

    /// The size of the file open at `fd`.
    public static func size(_ fd: Int32, path: String) throws(SystemError) -> Int {
        Int(try status(fd, path: path).st_size)
    }

    /// `fstat(2)` of the file open at `fd`.
    public static func status(_ fd: Int32, path: String) throws(SystemError) -> stat {
        var info = stat()
        if fstat(fd, &info) != 0 { throw .last("fstat", path) }
        return info
    }

    /// Takes the exclusive advisory lock of `fd` without waiting (`flock(LOCK_EX | LOCK_NB)`); another
    /// holder makes it throw `EWOULDBLOCK`. Held until the descriptor closes.
    public static func lockExclusively(_ fd: Int32, path: String) throws(SystemError) {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno != EINTR { throw .last("flock", path) }
        }
    }

    /// Takes the exclusive advisory lock of `fd`, waiting while another descriptor holds it (`flock(LOCK_EX)`).
    /// Held until the descriptor closes.
    public static func lockExclusivelyWaiting(_ fd: Int32, path: String) throws(SystemError) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw .last("flock", path) }
        }
    }
}
