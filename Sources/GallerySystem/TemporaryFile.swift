import Glibc
import Synchronization

/// A file being written where no reader can see it, then published under its final name in one step.
///
/// On Linux it is first an anonymous file (`open(directory, O_TMPFILE)`), given its name by `linkat(2)`:
/// one directory entry made, none removed, and no name to invent. Where that is not available (a file
/// system without `O_TMPFILE`, no `/proc`), or when the target already exists (`linkat` never replaces),
/// it is a visible temporary `.fg-PID-N.tmp` in the same directory that `rename(2)` moves over the target.
/// Either way a reader sees the old file or the whole new one, never a part.
public struct TemporaryFile {
    /// How the file is created.
    public enum Kind: Sendable {
        /// `O_TMPFILE` first, falling back to a named temporary when the directory's file system refuses it.
        case automatic
        /// Always a named temporary (the fallback path, also chosen by tests).
        case named
    }

    /// How temporary names start (`.fg-PID-N.tmp`), so a cleaner can recognise leftovers of a killed run.
    public static let prefix = ".fg-"

    /// The descriptor, open for writing.
    public let fd: Int32
    /// The folder the file will be published in.
    public let directory: String
    /// The visible temporary's path, or nil while the file is anonymous.
    public private(set) var name: String?

    /// `O_TMPFILE` as Linux defines it (`__O_TMPFILE | O_DIRECTORY`); Glibc's macro does not import.
    static let anonymousFlag: Int32 = 0o20_000_000 | O_DIRECTORY
    /// `AT_EMPTY_PATH`, which Glibc declares only under `_GNU_SOURCE`.
    static let emptyPathFlag: Int32 = 0x1000

    /// Creates the file in `directory` (which must exist: the caller makes it on ENOENT).
    public static func create(in directory: String, kind: Kind) throws(SystemError) -> TemporaryFile {
        if kind == .automatic {
            do throws(SystemError) {
                let fd = try Syscall.open(directory, anonymousFlag | O_WRONLY)
                return TemporaryFile(fd: fd, directory: directory, name: nil)
            } catch {
                switch error.errno {
                case EOPNOTSUPP, EISDIR, EINVAL: break  // no O_TMPFILE here: a named temporary instead
                default: throw error
                }
            }
        }
        let name = try createNamed(in: directory)
        return TemporaryFile(fd: name.fd, directory: directory, name: name.path)
    }

    /// An anonymous file in `directory`, or nil where it cannot be made (no `O_TMPFILE`, no such folder).
    public static func anonymous(in directory: String) -> TemporaryFile? {
        guard let fd = try? Syscall.open(directory, anonymousFlag | O_WRONLY) else { return nil }
        return TemporaryFile(fd: fd, directory: directory, name: nil)
    }

    /// Gives the file the name `path` (in `directory`), replacing what is there, and closes it.
    /// A `linkat` failure other than "the target exists" (no `/proc`, a file system that cannot link an
    /// anonymous file) throws `call: "linkat"` with the file discarded: ``AtomicWrite`` then writes the
    /// bytes again through a named temporary.
    public mutating func publish(as path: String) throws(SystemError) {
        if name == nil {
            if linkNew(as: path) {
                Syscall.closeQuietly(fd)
                return
            }
            // linkat never replaces: an existing target gets the named way, a link then a rename over it.
            var code = errno
            while code == EEXIST {
                let candidate = Self.nextName(in: directory)
                if linkNew(as: candidate) {
                    name = candidate
                    break
                }
                code = errno
            }
            guard name != nil else {
                discard()
                throw SystemError(call: "linkat", path: path, errno: code)
            }
        }
        Syscall.closeQuietly(fd)
        guard let name else { return }
        do throws(SystemError) { try Syscall.rename(name, path) } catch {
            Syscall.remove(name)
            throw error
        }
    }

    /// Names the anonymous file `path` by `linkat(2)`, which never replaces: false (with `errno` set) when
    /// `path` exists or the link is refused. The file stays open.
    public func linkNew(as path: String) -> Bool {
        if Self.linksByDescriptor.load(ordering: .relaxed) {
            if linkat(fd, "", AT_FDCWD, path, Self.emptyPathFlag) == 0 { return true }
            // A kernel before 6.10 ignores AT_EMPTY_PATH for a process without CAP_DAC_READ_SEARCH and fails
            // with ENOENT, as it does for a missing folder: the link through /proc tells the two apart.
            guard errno == ENOENT else { return false }
            guard linkByProcPath(as: path) else { return false }
            Self.linksByDescriptor.store(false, ordering: .relaxed)
            return true
        }
        return linkByProcPath(as: path)
    }

    /// The link through the descriptor's name in `/proc`, which every kernel with `O_TMPFILE` allows.
    func linkByProcPath(as path: String) -> Bool {
        linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0
    }

    /// Whether `linkat(fd, "", ..., AT_EMPTY_PATH)` names an anonymous file here: it skips the path walk
    /// through `/proc/self/fd` (2-5 microseconds a file on tmpfs). Linux allows it to the file's opener since
    /// 6.10, and to a process with CAP_DAC_READ_SEARCH before; the first refusal turns it off for the process.
    static let linksByDescriptor = Atomic<Bool>(true)

    /// Closes the file and removes its temporary name, if it has one. An anonymous file simply vanishes.
    public func discard() {
        Syscall.closeQuietly(fd)
        if let name { Syscall.remove(name) }
    }

    /// A new visible temporary in `directory`, `O_EXCL` so a leftover of the same name is never reused.
    private static func createNamed(in directory: String) throws(SystemError) -> (fd: Int32, path: String) {
        while true {
            let path = nextName(in: directory)
            do throws(SystemError) {
                return (try Syscall.open(path, O_WRONLY | O_CREAT | O_EXCL), path)
            } catch where error.errno == EEXIST {
                continue
            }
        }
    }

    /// `.fg-PID-N.tmp`: a counter, not a random number (which costs a `getrandom(2)` per file). Not derived
    /// from the target's name: that may already be 255 bytes, the limit.
    private static func nextName(in directory: String) -> String {
        let n = counter.add(1, ordering: .relaxed).oldValue
        return directory + "/" + prefix + "\(getpid())-\(n).tmp"
    }

    private static let counter = Atomic<UInt64>(0)
}
