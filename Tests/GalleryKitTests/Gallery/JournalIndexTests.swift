import Foundation
import Testing
@testable import GalleryKit

/// The journal keeps an index of where each photo's records are, not the records: entries read back
/// from the file must be what replaying the records gives, across reopening, torn lines and compaction.
@Suite struct JournalIndexTests {
    /// Records for `count` photos, with a later `seen` (new metadata), a failure cleared by a thumbnail,
    /// and a thumbnail replaced by a later one of the same size.
    static func records(_ count: Int) -> [JournalRecord] {
        (1...count).flatMap { id -> [JournalRecord] in
            [.seen(PhotoMetadata(id: id, name: "p\(id)", description: String(repeating: "d", count: id % 50), page: id / 10 + 1)),
             .failed(id: id, reason: "try \(id)"),
             .original(id: id, file: OriginalFile(path: "photos/\(id % 1000)/\(id).jpg", sha256: String(repeating: "0", count: 64), bytes: id)),
             .thumbnail(id: id, file: ThumbnailFile(size: 256, path: "thumbs/256/\(id)-old.jpg")),
             .seen(PhotoMetadata(id: id, name: "p\(id) again", page: id / 10 + 1)),
             .thumbnail(id: id, file: ThumbnailFile(size: 256, path: "thumbs/256/\(id).jpg"))]
        }
    }

    @Test func entriesReadBackEqualTheReplayedState() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let records = Self.records(300)
        let expected = GalleryState(replaying: records)
        do {
            let journal = try Journal(folder: folder.path)
            for record in records { try journal.append(record) }
            #expect(journal.count == 300)
            for id in [1, 150, 300] { #expect(journal.entry(of: id) == expected.entries[id]) }
            #expect(journal.entry(of: 301) == nil)
            #expect(journal.state == expected)
        }
        // Reopened: the index is rebuilt from the file.
        let journal = try Journal(folder: folder.path)
        #expect(journal.replay.records == records.count)
        var seen: [GalleryState.Entry] = []
        try journal.forEachEntry { seen.append($0) }
        #expect(seen == expected.orderedEntries)
        // Compacted: the shortest records, and the same entries read from the new file.
        try journal.compact()
        #expect(journal.state == expected)
        try journal.append(.failed(id: 7, reason: "after compaction"))
        #expect(journal.entry(of: 7)?.failure == "after compaction")
        #expect(try JournalReplay.read(path: journal.path).state.entries[7]?.failure == "after compaction")
    }

    @Test func compactionDuringAppendsKeepsEveryEntry() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let records = Self.records(400)
        // A tiny threshold: compaction runs many times while records are appended.
        let journal = try Journal(folder: folder.path, options: .init(compactionThreshold: 4_096))
        for record in records { try journal.append(record) }
        #expect(journal.state == GalleryState(replaying: records))
        #expect(journal.size < 400 * 400)
    }

    @Test func byPageOrderIsStableAndAcrossATornTail() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        do {
            let journal = try Journal(folder: folder.path)
            try journal.append(.seen(PhotoMetadata(id: 5, name: "page 3", page: 3)))
            try journal.append(.seen(PhotoMetadata(id: 6, name: "page 1", page: 1)))
            try journal.append(.seen(PhotoMetadata(id: 7, name: "page 3 too", page: 3)))
            try journal.append(.seen(PhotoMetadata(id: 8, name: "page 1 too", page: 1)))
        }
        // A torn last line (a kill in the middle of a write) is left out, and fenced off.
        let path = folder.path + "/" + GalleryNaming.journalPath
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"photo\":{\"id\":9,\"na".utf8))
        try handle.close()
        let journal = try Journal(folder: folder.path)
        #expect(journal.replay.tornTail && journal.count == 4)
        var ids: [Int] = []
        try journal.forEachEntry(byPage: true) { ids.append($0.metadata.id) }
        #expect(ids == [6, 8, 5, 7])
        ids = []
        try journal.forEachEntry { ids.append($0.metadata.id) }
        #expect(ids == [5, 6, 7, 8])
        try journal.append(.seen(PhotoMetadata(id: 9, name: "whole")))
        #expect(journal.entry(of: 9)?.metadata.name == "whole")
    }
}
