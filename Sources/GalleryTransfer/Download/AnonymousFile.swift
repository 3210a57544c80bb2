import Foundation

/// Publishes a whole body held in memory under its final name in one step: an anonymous file
/// (`open(folder, O_TMPFILE)`) is written, then named by `linkat(2)`. Atomic like the `.part` + `rename`
/// way (a reader sees no file or the whole one) with one directory entry made instead of two changes,
/// and no `.part` name at all.
///
/// Only for a destination that does not exist yet: `linkat` never replaces. Any refusal (the name is
/// taken, the file system has no `O_TMPFILE`, no `/proc`) returns false with nothing left behind, and
/// the caller takes the `.part` way.
enum AnonymousFile {
    /// `O_TMPFILE` as Linux defines it (`__O_TMPFILE | O_DIRECTORY`); Glibc's macro does not import.
    static let flag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Writes `bytes` to a new file at `destination`. True when it is there; false when this way was
    /// refused before anything was published. A write or sync error throws (nothing is published then).
    static func publish(_ bytes: [UInt8], to destination: String, durable: Bool) throws(TransferError) -> Bool {
        let slash = destination.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(destination[..<$0]) } ?? "."
        let fd = open(folder.isEmpty ? "/" : folder, flag | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { Foundation.close(fd) }
        var failure: TransferError?
        bytes.withUnsafeBytes { raw in
            var p = raw.baseAddress
            var left = raw.count
            while left > 0, let base = p {
                let n = write(fd, base, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = PartFile.error(destination)
                    return
                }
                left -= n
                p = base + n
            }
        }
        if let failure { throw failure }
        if durable, fsync(fd) != 0 { throw PartFile.error(destination) }
        guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, destination, AT_SYMLINK_FOLLOW) == 0 else { return false }
        if durable { PartFile.syncDirectory(of: destination) }
        return true
    }
}
