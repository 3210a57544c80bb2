import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The journal's lines, written by hand (``JournalRecord/json()``), are the bytes JSONEncoder wrote for
/// them before, so a journal written by either version replays in the other: the reader (JSONDecoder) is
/// unchanged, and a resumed run appends lines a reader of either version reads back.
@Suite struct JournalRecordJSONTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func reference(_ record: JournalRecord) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(record))
    }

    @Test func generatedRecordsAreTheEncodersBytesAndDecodeBack() throws {
        var samples = JSONSamples(seed: 10)
        let decoder = JSONDecoder()
        for _ in 0..<3_000 {
            let record = samples.record()
            let line = try record.json()
            let expected = try Self.reference(record)
            #expect(Self.text(line) == Self.text(expected))
            #expect(try decoder.decode(JournalRecord.self, from: Data(line)) == record)
        }
    }

    @Test func everyOptionalMemberSetAndNoneSet() throws {
        var samples = JSONSamples(seed: 11)
        let grey = GreyReduction(pixels: (0..<576).map { UInt8($0 % 256) })!
        let full: [JournalRecord] = [
            .seen(PhotoMetadata(id: 7, name: "n/a \"x\"", photographer: "p\\q", rating: 4.5, description: "d\u{1}",
                                sourceURL: "http://127.0.0.1/a/b.jpg", width: 640, height: 480, page: 3, sourceID: "uuid",
                                credit: PhotoCredit(author: "a", authorURL: "u", licence: "CC BY 4.0", licenceURL: "l",
                                                    pageURL: "pg", service: "s", serviceURL: "su"))),
            .original(id: 7, file: OriginalFile(path: "photos/007/7-x.jpg", sha256: "ab", bytes: 1, width: 2, height: 3,
                                                exif: ExifMetadata(make: "m", model: "mo", lens: "l", exposureTime: 0.008,
                                                                   fNumber: 2.8, iso: 100, focalLength: 35, dateTaken: "2024-05-01T14:30:05",
                                                                   latitude: -33.8688, longitude: 151.2093, altitude: 58),
                                                phash: PerceptualHash(bits: 0x00FF_00FF_00FF_00FF), thumbhash: "th+/=", grey: grey)),
            .thumbnail(id: 7, file: ThumbnailFile(size: 256, path: "thumbs/256/007/7-x.jpg", width: 256, height: 192)),
            .seen(PhotoMetadata(id: -1, name: "")),
            .original(id: 0, file: OriginalFile(path: "", sha256: "", bytes: 0)),
            .thumbnail(id: 0, file: ThumbnailFile(size: 0, path: "")),
            .failed(id: 8, reason: samples.string(length: 80)),
        ]
        for record in full {
            #expect(Self.text(try record.json()) == Self.text(try Self.reference(record)))
        }
    }

    @Test func nonFiniteNumberFailsAsTheEncoderFails() {
        let record = JournalRecord.seen(PhotoMetadata(id: 1, name: "n", rating: .infinity))
        #expect(throws: JSONText.NonFinite.self) { try record.json() }
        #expect(throws: GalleryError.self) { try Journal.encodeLine(record, path: "journal") }
    }

    /// A journal written line by line by the encoder (the reader before) and one written by `Journal`
    /// now are the same file, and each replays to the same state.
    @Test func journalFilesOfBothWritersAreTheSameAndReplayAlike() throws {
        var samples = JSONSamples(seed: 12)
        // Records about a few photos, so replay has entries to merge.
        let records = (0..<400).map { _ -> JournalRecord in
            switch samples.record() {
            case let .seen(metadata):
                var metadata = metadata
                metadata.id = samples.int(1...40)
                return .seen(metadata)
            case let .original(_, file): return .original(id: samples.int(1...40), file: file)
            case let .thumbnail(_, file): return .thumbnail(id: samples.int(1...40), file: file)
            case let .failed(_, reason): return .failed(id: samples.int(1...40), reason: reason)
            }
        }
        let folder = TemporaryFolder()
        defer { folder.remove() }
        do {
            let journal = try Journal(folder: folder.path)
            for record in records { try journal.append(record) }
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + GalleryNaming.journalPath))
        let old = try records.flatMap { try Self.reference($0) + [UInt8(ascii: "\n")] }
        #expect(Self.text(Array(written)) == Self.text(old))
        let other = TemporaryFolder()
        defer { other.remove() }
        try AtomicFile.write(old, to: other.path + "/" + GalleryNaming.journalPath)
        // The old writer's file replays (in the reader both versions share) to what the new one's does.
        let replayed = try Journal(folder: other.path).state
        #expect(replayed == (try Journal(folder: folder.path).state))
        #expect(replayed.order.count > 30)
    }
}
