import Glibc

/// Thin checked wrappers over the few system calls the gallery writer makes, turning
/// `-1` + `errno` into `GalleryError.system` naming the call and the path.
enum POSIX {
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(GalleryError) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .system(call: "open", path: path, errno: errno) }
        }
    }

    /// Writes all of `bytes`. One `write(2)` in the normal case; it loops only on a short
    /// write or EINTR, which a regular file gives only when the disk is nearly full.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(GalleryError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(call: "write", path: path, errno: errno)
            }
            offset += n
        }
    }

    /// `writeAll` for an array, keeping the typed error through the buffer closure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(GalleryError) {
        let result: Result<Void, GalleryError> = bytes.withUnsafeBytes { buffer in
            do throws(GalleryError) {
                try writeAll(fd, buffer, path: path)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The whole file at `path`, or nil when it does not exist.
    static func readAll(_ path: String) throws(GalleryError) -> [UInt8]? {
        let fd: Int32
        do throws(GalleryError) {
            fd = try open(path, O_RDONLY)
        } catch {
            if case .system(_, _, ENOENT) = error { return nil }
            throw error
        }
        defer { _ = Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return bytes }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(call: "read", path: path, errno: errno)
            }
            bytes += chunk[..<n]
        }
    }

    static func fsync(_ fd: Int32, path: String) throws(GalleryError) {
        if Glibc.fsync(fd) != 0 { throw .system(call: "fsync", path: path, errno: errno) }
    }

    static func close(_ fd: Int32, path: String) throws(GalleryError) {
        // Linux closes the descriptor even when close(2) reports EINTR; never retry.
        if Glibc.close(fd) != 0 && errno != EINTR { throw .system(call: "close", path: path, errno: errno) }
    }

    static func rename(_ from: String, _ to: String) throws(GalleryError) {
        if Glibc.rename(from, to) != 0 { throw .system(call: "rename", path: to, errno: errno) }
    }

    /// Creates `path` and its parents; an existing directory is fine.
    static func makeDirectories(_ path: String) throws(GalleryError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw .system(call: "mkdir", path: current, errno: errno)
            }
        }
    }

    /// The size of the regular file at `path`, or nil when there is none (or it is not a regular file).
    static func fileSize(_ path: String) -> Int64? {
        var info = Glibc.stat()
        guard statRegularFile(path, &info) else { return nil }
        return Int64(info.st_size)
    }

    /// Fills `info` for the regular file at `path`; false when there is none.
    static func statRegularFile(_ path: String, _ info: inout Glibc.stat) -> Bool {
        stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether anything exists at `path`.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Deletes the file at `path`; returns whether there was one to delete. Best effort: the callers
    /// clean up temporary or stale files, whose absence is what they want.
    @discardableResult
    static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Creates the folder `path` (its parent must exist); an existing one is fine, other failures are left
    /// to the write into it, which names the path.
    static func makeDirectory(_ path: String) { _ = mkdir(path, 0o755) }

    /// The names in the folder `path` (nil when it cannot be read).
    static func names(in path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Size of the file at `fd`.
    static func size(_ fd: Int32, path: String) throws(GalleryError) -> Int {
        var info = Glibc.stat()
        if fstat(fd, &info) != 0 { throw .system(call: "fstat", path: path, errno: errno) }
        return Int(info.st_size)
    }
}
