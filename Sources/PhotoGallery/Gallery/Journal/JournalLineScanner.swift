import Foundation
import GallerySystem
import Glibc

/// Reads a journal file a chunk at a time and hands on each line with its offset, so that opening a
/// journal of any size takes constant memory beyond the index.
struct JournalLineScanner {
    /// One line: its offset, bytes (no newline), and whether a newline ended it.
    typealias Line = (offset: Int64, bytes: ArraySlice<UInt8>, terminated: Bool)

    let path: String

    /// Calls `body` for every line of the file in order; a missing file has none. Returns the file size.
    @discardableResult
    func forEachLine(_ body: (Line) -> Void) throws(GalleryError) -> Int64 {
        try POSIX.gallery { () throws(SystemError) -> Int64 in
            guard let fd = try Syscall.openIfPresent(path, O_RDONLY) else { return 0 }
            defer { Syscall.closeQuietly(fd) }
            let lines = LineReader(FileSource(fd: fd, path: path))
            while let line = try lines.next() { body((line.offset, line.bytes, line.terminated)) }
            return lines.offset
        }
    }
}

extension JournalRecord {
    /// The record on one line of the journal (no newline), or nil when it is not one.
    /// Read by hand when in the form the journal writes (``init(scanning:)``), else by `decoder`.
    static func decodeLine(_ line: some Collection<UInt8>, with decoder: JSONDecoder) -> JournalRecord? {
        let scanned = line.withContiguousStorageIfAvailable { JournalRecord(scanning: $0) }
            ?? Array(line).withUnsafeBufferPointer { JournalRecord(scanning: $0) }
        return scanned ?? (try? decoder.decode(JournalRecord.self, from: Data(line)))
    }
}
