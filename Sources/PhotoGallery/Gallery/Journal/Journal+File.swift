import Foundation
import Glibc

/// The journal's file, record by record: replaying it on open, reading a photo's records back, the
/// line format, and the temporary files a killed compaction can leave.
extension Journal {
    /// The entry of photo `id` from its records in the file, `refs` in file order (a run of several
    /// lines is split at its newlines; a record that cannot be read back is skipped, as replay skips it).
    static func read(id: Int, _ refs: [RecordRef], fd: Int32) -> GalleryState.Entry {
        var entry = GalleryState.Entry(metadata: PhotoMetadata(id: id, name: ""))
        let decoder = JSONDecoder()
        for ref in refs {
            guard let bytes = try? POSIX.read(fd, count: Int(ref.length), at: ref.offset, path: "journal"),
                  bytes.count == Int(ref.length) else { continue }
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                if let record = JournalRecord.decodeLine(line, with: decoder) { entry.apply(record) }
            }
        }
        return entry
    }

    /// Reads the journal at `path` a chunk at a time into an index and the replay's counts.
    static func scan(path: String) throws(GalleryError) -> (JournalIndex, JournalReplay) {
        var index = JournalIndex()
        var records = 0
        var skipped: [Int] = []
        var torn = false
        var lineNumber = 0
        var endsWithNewline = true
        let decoder = JSONDecoder()
        try JournalLineScanner(path: path).forEachLine { line in
            lineNumber += 1
            endsWithNewline = line.terminated
            guard !line.bytes.isEmpty else { return }
            if let record = JournalRecord.decodeLine(line.bytes, with: decoder) {
                index.add(record, at: RecordRef(offset: line.offset, length: Int32(clamping: line.bytes.count)))
                records += 1
            } else if !line.terminated {
                torn = true  // only the last piece can lack a newline
                index.noteUnreadableLines()
            } else {
                skipped.append(lineNumber)
                index.noteUnreadableLines()
            }
        }
        return (index, JournalReplay(records: records, tornTail: torn, skippedLines: skipped,
                                     needsNewline: !endsWithNewline))
    }

    static func removeStaleTemporaries(in directory: String) {
        let names = POSIX.names(in: directory) ?? []
        for name in names where name.hasPrefix(AtomicFile.temporaryPrefix) && name.hasSuffix(".tmp") {
            POSIX.remove(directory + "/" + name)
        }
    }

    /// One record as a JSON line (``JournalRecord/json()``). Control characters inside strings are
    /// escaped, so the only newline in the output is the terminator. A NaN or an infinity, which JSON cannot
    /// hold, fails naming the photo.
    static func encodeLine(_ record: JournalRecord, path: String) throws(GalleryError) -> [UInt8] {
        do {
            var line = try record.json()
            line.append(UInt8(ascii: "\n"))
            return line
        } catch {
            throw .encoding(path: path, reason: error.reason(photo: record.photoID))
        }
    }
}
