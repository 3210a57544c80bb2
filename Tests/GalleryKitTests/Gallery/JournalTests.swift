import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct JournalTests {
    static let records: [JournalRecord] = [
        .seen(PhotoMetadata(id: 1, name: "<script>alert(1)</script>\nline two", photographer: "ann", rating: 97.5,
                            description: "nul\u{0}and\u{202E}rtl", sourceURL: "http://127.0.0.1/1.jpg", width: 4000, height: 3000)),
        .seen(PhotoMetadata(id: 2, name: "second")),
        .original(id: 1, file: OriginalFile(path: "photos/1-x.jpg", sha256: String(repeating: "ab", count: 32), bytes: 123_456, width: 4000, height: 3000)),
        .thumbnail(id: 1, file: ThumbnailFile(size: 320, path: "thumbs/320/1-x.jpg", width: 320, height: 240)),
        .failed(id: 2, reason: "HTTP 404 for http://127.0.0.1/2.jpg"),
        .thumbnail(id: 1, file: ThumbnailFile(size: 640, path: "thumbs/640/1-x.jpg", width: 640, height: 480)),
        .seen(PhotoMetadata(id: 3, name: "third")),
    ]

    @Test func appendThenReplayRebuildsTheState() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        do {
            let journal = try Journal(folder: folder.path)
            for record in Self.records { try journal.append(record) }
            #expect(journal.state == GalleryState(replaying: Self.records))
        }
        let replay = try JournalReplay.read(path: folder.path + "/" + GalleryNaming.journalPath)
        #expect(replay.records == Self.records.count && !replay.tornTail && replay.skippedLines.isEmpty)
        let state = replay.state
        #expect(state.order == [1, 2, 3])
        #expect(state.original(of: 1)?.sha256 == String(repeating: "ab", count: 32))
        #expect(state.original(of: 2) == nil)
        #expect(state.thumbnails(of: 1).keys.sorted() == [320, 640])
        #expect(state.failures.map(\.id) == [2])
        #expect(state.entries[1]?.metadata.description == "nul\u{0}and\u{202E}rtl")
        // One line per record: newlines inside strings are escaped.
        let text = try folder.read(GalleryNaming.journalPath)
        #expect(text.split(separator: "\n").count == Self.records.count)
    }

    /// A SIGKILL can stop the process after any byte of a write; every prefix of the file
    /// must replay to the state of the records that were complete.
    @Test func replayAfterATornWriteAtEveryByte() throws {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for record in Self.records {
            bytes += try Journal.encodeLine(record, path: "test")
            ends.append(bytes.count)
        }
        for cut in 0...bytes.count {
            let replay = JournalReplay(data: Data(bytes[..<cut]))
            let complete = ends.filter { $0 <= cut }.count
            // A record whose newline was cut off but whose JSON is whole still counts.
            let whole = ends.contains(cut + 1) ? complete + 1 : complete
            #expect(replay.state == GalleryState(replaying: Self.records.prefix(whole)), "cut at \(cut)")
            #expect(replay.skippedLines.isEmpty)
            #expect(replay.tornTail == (whole == complete && !ends.contains(cut) && cut > 0))
        }
    }

    @Test func reopeningAfterATornTailStartsAFreshLine() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        do {
            let journal = try Journal(folder: folder.path)
            try journal.append(Self.records[0])
        }
        // Simulate a kill in the middle of the second record's write.
        let torn = try Journal.encodeLine(Self.records[1], path: "test").prefix(17)
        let handle = try #require(FileHandle(forWritingAtPath: folder.path + "/" + GalleryNaming.journalPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(torn))
        try handle.close()

        let journal = try Journal(folder: folder.path)
        #expect(journal.replay.tornTail && journal.replay.records == 1)
        try journal.append(Self.records[2])
        let replay = try JournalReplay.read(path: journal.path)
        #expect(replay.state == GalleryState(replaying: [Self.records[0], Self.records[2]]))
        #expect(replay.skippedLines == [2])  // the fenced-off torn line
        #expect(!replay.tornTail)
    }

    @Test func compactionKeepsTheStateAndShrinksTheFile() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let journal = try Journal(folder: folder.path, options: Journal.Options(compactionThreshold: 4096))
        // The same facts over and over: the file grows, the state does not.
        for round in 0..<200 {
            try journal.append(Self.records[round % Self.records.count])
        }
        #expect(journal.size < 8192)
        let expected = GalleryState(replaying: Self.records)
        #expect(journal.state == expected)
        #expect(try JournalReplay.read(path: journal.path).state == expected)
        // Appends after compaction land in the new file, not the replaced one.
        try journal.append(.failed(id: 3, reason: "after compaction"))
        #expect(try JournalReplay.read(path: journal.path).state.entries[3]?.failure == "after compaction")
        try journal.compact()
        let text = try folder.read(GalleryNaming.journalPath)
        #expect(text.split(separator: "\n").count == journal.state.compactedRecords.count)
        #expect(folder.files().filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func concurrentAppendsAreWholeLines() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let journal = try Journal(folder: folder.path, options: Journal.Options(fsyncEachRecord: false))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<8 {
                group.addTask {
                    for step in 0..<50 {
                        try journal.append(.seen(PhotoMetadata(id: id * 1000 + step, name: String(repeating: "n", count: 300))))
                    }
                }
            }
            try await group.waitForAll()
        }
        let replay = try JournalReplay.read(path: journal.path)
        #expect(replay.records == 400 && replay.skippedLines.isEmpty && !replay.tornTail)
        #expect(replay.state.order.count == 400)
    }

    @Test func oneProcessPerFolder() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let first = try Journal(folder: folder.path)
        #expect(throws: GalleryError.system(call: "flock", path: folder.path + "/.fetch-gallery/lock", errno: EWOULDBLOCK)) {
            _ = try Journal(folder: folder.path)
        }
        _ = first
    }

    @Test func originalOnDiskChecksPresenceAndSize() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var state = GalleryState()
        state.apply(.seen(PhotoMetadata(id: 1, name: "a")))
        state.apply(.original(id: 1, file: OriginalFile(path: "photos/1-a.jpg", sha256: "s", bytes: 5)))
        #expect(state.originalOnDisk(of: 1, in: folder.path) == nil)  // not written yet
        try AtomicFile.write("1234", to: folder.path + "/photos/1-a.jpg")
        #expect(state.originalOnDisk(of: 1, in: folder.path) == nil)  // wrong size: truncated
        try AtomicFile.write("12345", to: folder.path + "/photos/1-a.jpg")
        #expect(state.originalOnDisk(of: 1, in: folder.path)?.bytes == 5)
        #expect(state.originalOnDisk(of: 2, in: folder.path) == nil)
        #expect(state.entries[1]?.originalOnDisk(in: folder.path) == state.originalOnDisk(of: 1, in: folder.path))
    }

    /// What each photo task reads: one entry, the same as in the whole state, as records arrive.
    @Test func entryIsThePhotosEntryAsOfTheLastRecord() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let journal = try Journal(folder: folder.path)
        var replayed = GalleryState()
        for record in Self.records {
            try journal.append(record)
            replayed.apply(record)
            for id in [1, 2, 3, 4] { #expect(journal.entry(of: id) == replayed.entries[id]) }
        }
        #expect(journal.entry(of: 1)?.thumbnails.keys.sorted() == [320, 640])
        #expect(journal.entry(of: 2)?.failure == "HTTP 404 for http://127.0.0.1/2.jpg")
        #expect(journal.entry(of: 4) == nil)
    }

    @Test func stateRules() {
        var state = GalleryState()
        state.apply(.failed(id: 5, reason: "timeout"))
        #expect(state.order == [5] && state.entries[5]?.failure == "timeout")
        state.apply(.seen(PhotoMetadata(id: 5, name: "late")))
        state.apply(.original(id: 5, file: OriginalFile(path: "o", sha256: "s", bytes: 1)))
        #expect(state.entries[5]?.failure == nil && state.entries[5]?.isComplete == true)
        #expect(state.entries[5]?.metadata.name == "late")
        #expect(GalleryState(replaying: state.compactedRecords) == state)
    }
}

@Suite struct JournalReadingTests {
    @Test func missingFileIsAnEmptyJournalAndADirectoryIsATypedError() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        #expect(try JournalReplay.read(path: folder.path + "/absent.jsonl").records == 0)
        #expect(throws: GalleryError.system(call: "read", path: folder.path, errno: EISDIR)) {
            try JournalReplay.read(path: folder.path)
        }
    }

    @Test func metadataFromASelectedPhoto() throws {
        let photo = Photo(id: 4, name: "n", description: "d", rating: 9.5, user: PhotoUser(username: "u", fullname: "Full Name"),
                          width: 10, height: 20, images: [PhotoImage(size: 2048, url: "http://127.0.0.1/4.jpg")])
        var selector = PhotoSelector(pageLimit: 1)
        let selected = try #require(selector.add(PhotoPage(photos: [photo]), number: 1).selected.first)
        #expect(PhotoMetadata(selected) == PhotoMetadata(id: 4, name: "n", photographer: "Full Name", rating: 9.5, description: "d",
                                                         sourceURL: "http://127.0.0.1/4.jpg", width: 10, height: 20, page: 1))
    }
}
