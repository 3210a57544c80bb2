import Glibc

/// The calls on names rather than descriptors: rename, remove, folders, and what is at a path.
extension Syscall {
    /// Renames `from` to `to`, replacing `to` (atomic on one file system).
    public static func rename(_ from: String, _ to: String) throws(SystemError) {
        if Glibc.rename(from, to) != 0 { throw .last("rename", to) }
    }

    /// Deletes the file at `path`; returns whether there was one to delete. Best effort: the callers
    /// clean up temporary or stale files, whose absence is what they want.
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Sets the file's access and modification times to now (`utimensat(2)`); false when there is no such file.
    /// A cache that orders its files by modification time marks a use this way.
    @discardableResult
    public static func touch(_ path: String) -> Bool { utimensat(AT_FDCWD, path, nil, 0) == 0 }

    /// `rmdir(2)`: removes the folder at `path` when it is empty; false otherwise (or when it is missing).
    @discardableResult
    public static func removeEmptyDirectory(_ path: String) -> Bool { rmdir(path) == 0 }

    /// Creates `path` and its parents; an existing directory is fine. The folder itself is made first: its
    /// parent is there for nearly every call (a new bucket of the gallery's fan-out), and then that is one
    /// `mkdir(2)`, where a walk from the root made one per component (five a new bucket, four failing).
    /// When that fails, the walk makes each missing parent and names the component that cannot be made.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(SystemError) {
        if mkdir(path, mode) == 0 || errno == EEXIST { return }
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST { throw .last("mkdir", current) }
        }
    }

    /// Creates the folder `path` (its parent must exist); an existing one is fine, other failures are left
    /// to the write into it, which names the path.
    public static func makeDirectory(_ path: String) { _ = mkdir(path, 0o755) }

    /// `stat(2)` of `path`, or nil when there is nothing there (or it cannot be reached).
    public static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// `stat(2)` of the regular file at `path`, or nil when there is none.
    public static func regularFileStatus(_ path: String) -> stat? {
        guard let info = status(path), isRegular(info) else { return nil }
        return info
    }

    /// Whether `info` describes a regular file.
    public static func isRegular(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }

    /// The size of the regular file at `path`, or nil when there is none.
    public static func fileSize(_ path: String) -> Int64? { regularFileStatus(path).map { Int64($0.st_size) } }

    /// Whether anything exists at `path`.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether this process may read the file at `path`.
    public static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// The names in the folder `path`, without `.` and `..`.
    public static func names(in path: String) throws(SystemError) -> [String] {
        guard let dir = opendir(path) else { throw .last("opendir", path) }
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

    /// Makes renames and links inside the folder `directory` durable: the entries live in its inode.
    public static func syncDirectory(_ directory: String) throws(SystemError) {
        let fd = try open(directory, O_RDONLY | O_DIRECTORY)
        defer { closeQuietly(fd) }
        try fsync(fd, path: directory)
    }

    /// ``syncDirectory(_:)`` of the folder holding `path`, best effort (`.` for a bare name).
    public static func syncDirectoryQuietly(of path: String) {
        try? syncDirectory(PathText.folder(of: path))
    }
}

extension Syscall {
    /// `path` made absolute with every symbolic link, `.` and `..` resolved (realpath(3)), or nil when
    /// it does not exist. A service checks the result lies under its root before reading it.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
