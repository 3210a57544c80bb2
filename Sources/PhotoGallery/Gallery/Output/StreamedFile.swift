import Foundation
import GallerySystem
import Glibc

/// A file written piece by piece and published whole, like ``AtomicFile`` but without holding its
/// contents in memory: the pieces go to a temporary file beside the target, which replaces the
/// target by `rename(2)` in ``commit(onlyIfChanged:durable:)``. A reader (or a crash) sees the old file or the new one.
final class StreamedFile {
    /// The file being replaced.
    let path: String
    private let temporary: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes written so far.
    private(set) var size = 0

    /// Starts a new version of `path`, creating its folder when missing.
    init(path: String) throws(GalleryError) {
        self.path = path
        let folder = PathText.folder(of: path)
        try POSIX.makeDirectories(folder)
        temporary = folder + "/" + AtomicFile.temporaryPrefix
            + "\(getpid())-\(UInt64.random(in: 0 ... .max)).tmp"
        fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
    }

    deinit { abandon() }

    /// Appends `text` as UTF-8.
    func write(_ text: String) throws(GalleryError) { try write(Array(text.utf8)) }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(GalleryError) {
        buffer += bytes
        size += bytes.count
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends the whole file at `source` (another streamed piece), read in chunks.
    func append(contentsOf source: String) throws(GalleryError) {
        try flush()
        let input = try POSIX.open(source, O_RDONLY)
        defer { POSIX.closeQuietly(input) }
        while true {
            let chunk = try POSIX.gallery { () throws(SystemError) in try Syscall.read(input, count: 1 << 16, path: source) }
            if chunk.isEmpty { return }
            try POSIX.writeAll(fd, chunk, path: temporary)
            size += chunk.count
        }
    }

    /// Publishes the file by rename. With `onlyIfChanged`, leaves the target alone (and its
    /// modification time) when it already holds the same bytes; returns whether it replaced it. With
    /// `durable`, the file is `fsync`ed before it is published.
    @discardableResult
    func commit(onlyIfChanged: Bool = false, durable: Bool = false) throws(GalleryError) -> Bool {
        try flush()
        if durable { try POSIX.fsync(fd, path: temporary) }
        let written = fd
        fd = -1
        try POSIX.close(written, path: temporary)
        if onlyIfChanged && Self.sameContents(temporary, path) {
            POSIX.remove(temporary)
            return false
        }
        do throws(GalleryError) { try POSIX.rename(temporary, path) } catch {
            POSIX.remove(temporary)
            throw error
        }
        return true
    }

    /// Drops the temporary file; the target is untouched.
    func abandon() {
        guard fd >= 0 else { return }
        POSIX.closeQuietly(fd)
        fd = -1
        POSIX.remove(temporary)
    }

    private func flush() throws(GalleryError) {
        guard !buffer.isEmpty else { return }
        try POSIX.writeAll(fd, buffer, path: temporary)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Whether two files hold the same bytes, compared a chunk at a time.
    static func sameContents(_ a: String, _ b: String) -> Bool {
        guard let first = FileHandle(forReadingAtPath: a), let second = FileHandle(forReadingAtPath: b) else { return false }
        defer { try? first.close(); try? second.close() }
        while true {
            let x = (try? first.read(upToCount: 1 << 16)) ?? Data()
            let y = (try? second.read(upToCount: 1 << 16)) ?? Data()
            if x != y { return false }
            if x.isEmpty { return true }
        }
    }
}
