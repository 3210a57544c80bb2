import Foundation
import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A run's end compacts the journal only when that drops something (``SupersededRecords``): a first run's
/// journal, every record of which still counts, is left as written; anything a later record replaced, or
/// an unreadable line, still gets the journal rewritten.
@Suite struct JournalSupersededTests {
    static func original(_ id: Int, _ n: Int = 0) -> JournalRecord {
        .original(id: id, file: OriginalFile(path: "photos/\(id)-\(n).jpg", sha256: String(repeating: "0", count: 64), bytes: 100 + n))
    }

    static func thumbnail(_ id: Int, _ size: Int, _ n: Int = 0) -> JournalRecord {
        .thumbnail(id: id, file: ThumbnailFile(size: size, path: "thumbs/\(size)/\(id)-\(n).jpg"))
    }

    /// A first run as the pipeline writes it: every photo's `seen`, then its original and thumbnails (or a
    /// failure), photos interleaved.
    static func firstRun(_ count: Int) -> [JournalRecord] {
        let seen = (1...count).map { JournalRecord.seen(PhotoMetadata(id: $0, name: "p\($0)")) }
        let made = (1...count).flatMap { id -> [JournalRecord] in
            id % 7 == 0 ? [.failed(id: id, reason: "HTTP 404")] : [original(id), thumbnail(id, 256), thumbnail(id, 1600)]
        }
        return seen + made
    }

    @Test("the note says exactly whether a compaction would drop a record, on random record sequences")
    func noteMatchesWhatCompactionDrops() {
        var random = SplitMix64(seed: 23)
        var dropping = 0
        for id in 1...3_000 {
            // A photo's records: its `seen` first, then up to 7 of any kind, thumbnails of three sizes.
            var records: [JournalRecord] = [.seen(PhotoMetadata(id: id, name: "p"))]
            for n in 0..<Int(random.next() % 8) {
                switch random.next() % 5 {
                case 0: records.append(.seen(PhotoMetadata(id: id, name: "p\(n)")))
                case 1: records.append(Self.original(id, n))
                case 2: records.append(.failed(id: id, reason: "r\(n)"))
                default: records.append(Self.thumbnail(id, [256, 512, 1600][Int(random.next() % 3)], n))
                }
            }
            var note = SupersededRecords()
            for record in records { note.note(record, slot: 0) }
            let compacted = GalleryState(replaying: records).compactedRecords.count
            #expect(note.any == (records.count > compacted), "\(records)")
            if records.count > compacted { dropping += 1 }
        }
        // Both answers occur often enough to be checked.
        #expect(dropping > 500 && dropping < 2_500, "\(dropping)")
    }

    @Test("a first run's journal is left as written; a replaced record or a torn line gets it compacted")
    func compactsOnlyWhatItCanDrop() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let records = Self.firstRun(60)
        do {
            let journal = try Journal(folder: folder.path)
            try journal.append(contentsOf: Array(records[..<60]))
            for id in 1...60 { try journal.append(contentsOf: records.filter { $0.photoID == id && !$0.isSeen }) }
            #expect(!journal.holdsSuperseded)
            let written = try folder.read(GalleryNaming.journalPath)
            try journal.compactIfSuperseded()
            #expect(try folder.read(GalleryNaming.journalPath) == written, "a journal with nothing to drop was rewritten")
            #expect(journal.state == GalleryState(replaying: records))
        }
        do {
            // Reopened: still nothing to drop. Photo 5's original again: now there is.
            let journal = try Journal(folder: folder.path)
            #expect(!journal.holdsSuperseded)
            try journal.append(Self.original(5, 1))
            #expect(journal.holdsSuperseded)
            let before = journal.size
            try journal.compactIfSuperseded()
            #expect(!journal.holdsSuperseded && journal.size < before)
            #expect(journal.state == GalleryState(replaying: records + [Self.original(5, 1)]))
        }
        // A torn last line (a write cut short): the next open fences it off, and a compaction drops it.
        let path = folder.path + "/" + GalleryNaming.journalPath
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"type\":\"seen\",\"pho".utf8))
        handle.closeFile()
        let journal = try Journal(folder: folder.path)
        #expect(journal.replay.tornTail && journal.holdsSuperseded)
        try journal.compactIfSuperseded()
        #expect(!(try folder.read(GalleryNaming.journalPath)).contains("\"pho\n"))
        #expect(try JournalReplay.read(path: path).skippedLines.isEmpty)
    }
}

extension JournalSupersededTests {
    @Test("past the growth threshold, a journal with nothing to drop is not rewritten; one more record to drop compacts it")
    func growthCompactsOnlyWhatItCanDrop() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let journal = try Journal(folder: folder.path, options: .init(compactionThreshold: 4_096))
        let records = Self.firstRun(200)
        var written: [UInt8] = []
        for record in records {
            try journal.append(record)
            written += try Journal.encodeLine(record, path: journal.path)
        }
        #expect(journal.size > 8 * 4_096)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: journal.path))) == written, "a journal with nothing to drop was rewritten")
        // Photo 1 seen again: past the threshold with a record to drop, this append compacts.
        let renamed = JournalRecord.seen(PhotoMetadata(id: 1, name: "renamed"))
        try journal.append(renamed)
        #expect(!journal.holdsSuperseded)
        let lines = try folder.read(GalleryNaming.journalPath).split(separator: "\n")
        #expect(lines.count == records.count && lines.first?.contains("renamed") == true, "not compacted: \(lines.count) lines")
        #expect(journal.state == GalleryState(replaying: records + [renamed]))
    }
}

private extension JournalRecord {
    var isSeen: Bool { if case .seen = self { true } else { false } }
}
