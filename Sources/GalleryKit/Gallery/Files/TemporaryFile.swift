import Glibc
import Synchronization

/// A file being written where no reader can see it, then published under its final name in one step.
///
/// On Linux it is first an anonymous file (`open(directory, O_TMPFILE)`), given its name by `linkat(2)`:
/// one directory entry made, none removed, and no name to invent. Where that is not available (a file
/// system without `O_TMPFILE`, no `/proc`), or when the target already exists (`linkat` never replaces),
/// it is a visible temporary `.fg-PID-N.tmp` in the same directory that `rename(2)` moves over the target.
/// Either way a reader sees the old file or the whole new one, never a part.
struct TemporaryFile {
    /// How the file is created.
    enum Kind: Sendable {
        /// `O_TMPFILE` first, falling back to a named temporary when the directory's file system refuses it.
        case automatic
        /// Always a named temporary (the fallback path, also chosen by tests).
        case named
    }

    let fd: Int32
    let directory: String
    /// The visible temporary's path, or nil while the file is anonymous.
    private(set) var name: String?

    /// `O_TMPFILE` as Linux defines it (`__O_TMPFILE | O_DIRECTORY`); Glibc's macro does not import.
    static let anonymousFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Creates the file in `directory` (which must exist: the caller makes it on ENOENT).
    static func create(in directory: String, kind: Kind) throws(GalleryError) -> TemporaryFile {
        if kind == .automatic {
            let fd = Glibc.open(directory, anonymousFlag | O_WRONLY | O_CLOEXEC, 0o644)
            if fd >= 0 { return TemporaryFile(fd: fd, directory: directory, name: nil) }
            switch errno {
            case EOPNOTSUPP, EISDIR, EINVAL: break  // no O_TMPFILE here: a named temporary instead
            default: throw .system(call: "open", path: directory, errno: errno)
            }
        }
        let name = try createNamed(in: directory)
        return TemporaryFile(fd: name.fd, directory: directory, name: name.path)
    }

    /// Gives the file the name `path` (in `directory`), replacing what is there, and closes it.
    /// A `linkat` failure other than "the target exists" (no `/proc`, a file system that cannot link an
    /// anonymous file) throws `.system(call: "linkat", ...)` with the file discarded: ``AtomicFile``
    /// then writes the bytes again through a named temporary.
    mutating func publish(as path: String) throws(GalleryError) {
        if name == nil {
            let source = "/proc/self/fd/\(fd)"
            if linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
                _ = Glibc.close(fd)
                return
            }
            // linkat never replaces: an existing target gets the named way, a link then a rename over it.
            var code = errno
            while code == EEXIST {
                let candidate = Self.nextName(in: directory)
                if linkat(AT_FDCWD, source, AT_FDCWD, candidate, AT_SYMLINK_FOLLOW) == 0 {
                    name = candidate
                    break
                }
                code = errno
            }
            guard name != nil else {
                discard()
                throw .system(call: "linkat", path: path, errno: code)
            }
        }
        _ = Glibc.close(fd)
        guard let name else { return }
        if Glibc.rename(name, path) != 0 {
            let code = errno
            POSIX.remove(name)
            throw .system(call: "rename", path: path, errno: code)
        }
    }

    /// Closes the file and removes its temporary name, if it has one. An anonymous file simply vanishes.
    func discard() {
        _ = Glibc.close(fd)
        if let name { POSIX.remove(name) }
    }

    /// A new visible temporary in `directory`, `O_EXCL` so a leftover of the same name is never reused.
    private static func createNamed(in directory: String) throws(GalleryError) -> (fd: Int32, path: String) {
        while true {
            let path = nextName(in: directory)
            let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, path) }
            if errno == EEXIST || errno == EINTR { continue }
            throw .system(call: "open", path: path, errno: errno)
        }
    }

    /// `.fg-PID-N.tmp`: a counter, not a random number (which costs a `getrandom(2)` per file). Not derived
    /// from the target's name: that may already be 255 bytes, the limit.
    private static func nextName(in directory: String) -> String {
        let n = counter.add(1, ordering: .relaxed).oldValue
        return directory + "/" + AtomicFile.temporaryPrefix + "\(getpid())-\(n).tmp"
    }

    private static let counter = Atomic<UInt64>(0)
}
