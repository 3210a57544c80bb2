import GallerySync
import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

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

    /// Records of one photo written one after another are one run; records between other photos'
    /// are runs of their own, handed back in file order.
    @Test func adjacentRecordsOfAPhotoAreOneRun() {
        var index = JournalIndex()
        let seen = JournalRecord.seen(PhotoMetadata(id: 1, name: "a", page: 2))
        index.add(seen, at: RecordRef(offset: 0, length: 9))
        index.add(.failed(id: 1, reason: "x"), at: RecordRef(offset: 10, length: 5))
        index.add(.seen(PhotoMetadata(id: 2, name: "b", page: 1)), at: RecordRef(offset: 16, length: 7))
        index.add(.failed(id: 1, reason: "y"), at: RecordRef(offset: 24, length: 3))
        #expect(index.refs(ofSlot: 0) == [RecordRef(offset: 0, length: 15), RecordRef(offset: 24, length: 3)])
        #expect(index.refs(ofSlot: 1) == [RecordRef(offset: 16, length: 7)])
        #expect(index.slot(of: 2) == 1 && index.slot(of: 3) == nil)
        #expect(index.slots(byPage: true) == [1, 0] && index.slots(byPage: false) == [0, 1])
        index.replaceRuns(with: [RecordRef(offset: 0, length: 20), RecordRef(offset: 21, length: 8)])
        #expect(index.refs(ofSlot: 0) == [RecordRef(offset: 0, length: 20)])
        #expect(index.slots(byPage: true) == [1, 0])
    }

    /// The memory of the index is what keeps a worker's peak near flat: at 100,000 photos (ids spread
    /// over the whole Int range, as hashed source ids are), every id is found, and the index holds at
    /// most 128 bytes a photo with four scattered records each and 64 once compacted.
    @Test func holdsFewBytesPerPhotoAndFindsEveryId() {
        var index = JournalIndex()
        var random = SplitMix64(seed: 100_000)  // the same ids every run, so a failure can be replayed
        let ids = (0..<100_000).map { $0 % 3 == 0 ? $0 : Int.random(in: Int.min...Int.max, using: &random) }
        var offset: Int64 = 0
        for round in 0..<4 {
            for id in ids {
                let record: JournalRecord = round == 0
                    ? .seen(PhotoMetadata(id: id, name: "p", page: 1)) : .failed(id: id, reason: "r\(round)")
                index.add(record, at: RecordRef(offset: offset, length: 40))
                offset += 41
            }
        }
        #expect(index.count == Set(ids).count)
        for (slot, id) in ids.enumerated().prefix(1_000) { #expect(index.slot(of: id) == slot) }
        #expect(index.slot(of: -1) == nil)
        #expect(index.refs(ofSlot: 5).count == 4)
        #expect(index.heldBytes / index.count <= 128, "\(index.heldBytes / index.count) bytes a photo")
        index.replaceRuns(with: (0..<index.count).map { RecordRef(offset: Int64($0) * 200, length: 199) })
        #expect(index.heldBytes / index.count <= 64, "\(index.heldBytes / index.count) bytes a photo compacted")
    }
}
