import Foundation
import Glibc

/// Where one record lives in the journal file: its line's offset and length (newline excluded).
struct RecordRef: Sendable, Hashable {
    var offset: Int64
    var length: Int32
}

/// What the journal keeps in memory instead of the state itself: the photo ids in first-seen order
/// and, for each, the listing page and where its records are in the file. An entry is read back
/// from the file when it is needed (``Journal/entry(of:)``, the writers at the end of a run), so
/// memory holds about 100 bytes per photo (10 MB at 100,000) however long the descriptions, paths
/// and hashes are; the state kept whole grew by about 3 KB per photo.
struct JournalIndex: Sendable {
    struct Slot: Sendable {
        /// The listing page of the latest `seen` record (0 when unknown).
        var page: Int32 = 0
        /// Whether `refs[0]` is the latest `seen` record (a later one replaces it in place).
        var hasSeen = false
        /// The photo's records in file order; replaying them in order gives its entry.
        var refs: [RecordRef] = []
    }

    private(set) var order: [Int] = []
    private(set) var slots: [Int: Slot] = [:]

    var count: Int { order.count }

    /// Notes `record`, written at `ref`.
    mutating func add(_ record: JournalRecord, at ref: RecordRef) {
        let id = record.photoID
        if slots[id] == nil {
            order.append(id)
            slots[id] = Slot()
        }
        slots[id]!.note(record, at: ref)
    }

    /// Photo ids in first-seen order, or stably sorted by listing page.
    func ids(byPage: Bool) -> [Int] {
        guard byPage else { return order }
        let pages = order.map { slots[$0]?.page ?? 0 }
        return order.indices.sorted { (pages[$0], $0) < (pages[$1], $1) }.map { order[$0] }
    }
}

extension JournalIndex.Slot {
    /// A `seen` record only sets the metadata, so a later one can take the earlier one's place: the
    /// two `seen` records of every photo (handed on, then processed) cost one reference.
    mutating func note(_ record: JournalRecord, at ref: RecordRef) {
        if case let .seen(metadata) = record {
            page = Int32(clamping: metadata.page ?? 0)
            if hasSeen {
                refs[0] = ref
                return
            }
            hasSeen = true
            // Placed first: what `seen` sets, no other record touches.
            refs.insert(ref, at: 0)
            return
        }
        refs.append(ref)
    }
}

/// Reads a journal file a chunk at a time and hands on each line with its offset, so that opening a
/// journal of any size takes constant memory beyond the index.
struct JournalLineScanner {
    /// One line: its offset, bytes (no newline), and whether a newline ended it.
    typealias Line = (offset: Int64, bytes: ArraySlice<UInt8>, terminated: Bool)

    let path: String

    /// Calls `body` for every line of the file in order; a missing file has none. Returns the file size.
    @discardableResult
    func forEachLine(_ body: (Line) -> Void) throws(GalleryError) -> Int64 {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return 0 }
            throw .system(call: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(fd) }
        var buffer: [UInt8] = []
        var bufferOffset: Int64 = 0  // file offset of buffer[0]
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(call: "read", path: path, errno: errno)
            }
            if n == 0 { break }
            buffer += chunk[..<n]
            var start = 0
            while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                body((bufferOffset + Int64(start), buffer[start..<newline], true))
                start = newline + 1
            }
            buffer.removeSubrange(..<start)
            bufferOffset += Int64(start)
        }
        if !buffer.isEmpty { body((bufferOffset, buffer[...], false)) }
        return bufferOffset + Int64(buffer.count)
    }
}

extension JournalRecord {
    /// The record on one line of the journal (no newline), or nil when it is not one.
    static func decodeLine(_ line: some Collection<UInt8>, with decoder: JSONDecoder) -> JournalRecord? {
        try? decoder.decode(JournalRecord.self, from: Data(line))
    }
}
