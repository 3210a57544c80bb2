import Foundation
import Glibc

/// Writes whole files so a reader (or a crash) sees either the old file or the new one,
/// never a half-written one.
///
/// The bytes go to a temporary file in the same directory (so the final `rename(2)` stays
/// on one file system, where it is atomic), then the temporary file replaces the target.
/// Every file of the gallery folder is written through here.
public enum AtomicFile {
    /// How temporary files start, so a cleaner can recognise leftovers of a killed run.
    public static let temporaryPrefix = ".fg-"

    /// Writes `bytes` to `path`, creating the parent directories when missing.
    ///
    /// - Parameters:
    ///   - bytes: the whole new contents.
    ///   - path: the file to replace (or create).
    ///   - durable: also `fsync` the file before the rename and the directory after
    ///     it, so the new contents survive a power loss and not only a crash of this process.
    public static func write(_ bytes: some Sequence<UInt8>, to path: String, durable: Bool = false) throws(GalleryError) {
        let directory = (path as NSString).deletingLastPathComponent
        try POSIX.makeDirectories(directory.isEmpty ? "." : directory)
        // Not derived from the target's name: that may already be 255 bytes, the limit.
        let temporary = (directory.isEmpty ? "" : directory + "/") + temporaryPrefix + "\(getpid())-\(UInt64.random(in: 0 ... .max)).tmp"
        let fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        var closed = false
        do throws(GalleryError) {
            try POSIX.writeAll(fd, Array(bytes), path: temporary)
            if durable { try POSIX.fsync(fd, path: temporary) }
            closed = true  // Linux frees the descriptor even when close(2) fails.
            try POSIX.close(fd, path: temporary)
        } catch {
            if !closed { _ = Glibc.close(fd) }
            unlink(temporary)
            throw error
        }
        do throws(GalleryError) {
            try POSIX.rename(temporary, path)
        } catch {
            unlink(temporary)
            throw error
        }
        if durable { try syncDirectory(directory.isEmpty ? "." : directory) }
    }

    /// Writes `text` as UTF-8.
    public static func write(_ text: String, to path: String, durable: Bool = false) throws(GalleryError) {
        try write(text.utf8, to: path, durable: durable)
    }

    /// Like ``write(_:to:durable:)-(some Sequence<UInt8>,_,_)``, but leaves the file alone when it already holds
    /// exactly `bytes`, so a re-run that changes nothing rewrites nothing (a create and a rename per page
    /// cost more than reading it back). Returns whether it wrote.
    @discardableResult
    public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(GalleryError) -> Bool {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count,
           let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(bytes) {
            return false
        }
        try write(bytes, to: path)
        return true
    }

    /// Writes `text` as UTF-8 unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    public static func writeIfChanged(_ text: String, to path: String) throws(GalleryError) -> Bool {
        try writeIfChanged(Array(text.utf8), to: path)
    }

    /// Makes the rename itself durable: the directory entry lives in the directory's inode.
    private static func syncDirectory(_ directory: String) throws(GalleryError) {
        let fd = try POSIX.open(directory, O_RDONLY | O_DIRECTORY)
        defer { _ = Glibc.close(fd) }
        try POSIX.fsync(fd, path: directory)
    }
}
