import Glibc

/// The one way a whole file held in memory is published: a ``TemporaryFile`` in the target's folder,
/// written, then named in one step, so a reader (or a crash) sees the old file or the whole new one.
public enum AtomicWrite {
    /// Writes `bytes` to `path`, replacing what is there: `linkat(2)` for a new file, `rename(2)` over an
    /// existing one. Makes the parent folders only when creating the file reports them missing (most
    /// files go to folders that exist, so a write makes no failing probes). With `durable`, the file is
    /// `fsync`ed before it is published and the folder after, so it survives a power loss.
    public static func replace(_ path: String, with bytes: [UInt8], durable: Bool,
                               kind: TemporaryFile.Kind = .automatic) throws(SystemError) {
        let directory = PathText.folder(of: path)
        var file: TemporaryFile
        do throws(SystemError) {
            file = try TemporaryFile.create(in: directory, kind: kind)
        } catch where error.errno == ENOENT {
            try Syscall.makeDirectories(directory)
            file = try TemporaryFile.create(in: directory, kind: kind)
        }
        do throws(SystemError) {
            try Syscall.writeAll(file.fd, bytes, path: file.name ?? path)
            if durable { try Syscall.fsync(file.fd, path: file.name ?? path) }
        } catch {
            file.discard()
            throw error
        }
        do throws(SystemError) {
            try file.publish(as: path)
        } catch where error.call == "linkat" && kind == .automatic {
            // The anonymous file could not be named (no /proc?): the same bytes, the named way.
            return try replace(path, with: bytes, durable: durable, kind: .named)
        }
        if durable { try Syscall.syncDirectory(directory) }
    }

    /// Writes `bytes` to a new file at `path` through an anonymous file named by `linkat(2)`: one directory
    /// entry made, no temporary name. True when it is there; false when this way was refused before
    /// anything was published (the name is taken, the folder is missing, no `O_TMPFILE` or `/proc`), and
    /// the caller takes its own way. A write or sync error throws, naming `path`; nothing is published then.
    public static func createNew(_ path: String, with bytes: [UInt8], durable: Bool) throws(SystemError) -> Bool {
        guard let file = TemporaryFile.anonymous(in: PathText.folder(of: path)) else { return false }
        defer { Syscall.closeQuietly(file.fd) }
        try Syscall.writeAll(file.fd, bytes, path: path)
        if durable { try Syscall.fsync(file.fd, path: path) }
        guard file.linkNew(as: path) else { return false }
        if durable { Syscall.syncDirectoryQuietly(of: path) }
        return true
    }
}
