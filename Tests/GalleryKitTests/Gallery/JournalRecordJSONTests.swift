import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The journal's lines are written by hand (``JournalRecord/json()``, the record's one coding) and are the
/// bytes JSONEncoder wrote for them when the record was `Encodable` (``EncoderFixtures``), so a journal
/// written by either version replays in the other.
@Suite struct JournalRecordJSONTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func generatedRecordsAreTheEncodersBytesAndDecodeBack() throws {
        let expected = try EncoderFixtures.lines("journal-records.jsonl")
        #expect(expected.count == 300)
        var samples = JSONSamples(seed: 10)
        let decoder = JSONDecoder()
        for i in 0..<3_000 {
            let record = samples.record()
            let line = try record.json()
            if i < expected.count { #expect(Self.text(line) == expected[i]) }
            #expect(try decoder.decode(JournalRecord.self, from: Data(line)) == record)
        }
    }

    @Test func everyOptionalMemberSetAndNoneSet() throws {
        var samples = JSONSamples(seed: 11)
        let grey = GreyReduction(pixels: (0..<576).map { UInt8($0 % 256) })!
        let seen = JournalRecord.seen(PhotoMetadata(id: 7, name: "n/a \"x\"", photographer: "p\\q", rating: 4.5, description: "d\u{1}",
                                                    sourceURL: "http://127.0.0.1/a/b.jpg", width: 640, height: 480, page: 3, sourceID: "uuid",
                                                    credit: PhotoCredit(author: "a", authorURL: "u", licence: "CC BY 4.0", licenceURL: "l",
                                                                        pageURL: "pg", service: "s", serviceURL: "su")))
        let original = JournalRecord.original(id: 7, file: OriginalFile(path: "photos/007/7-x.jpg", sha256: "ab", bytes: 1, width: 2, height: 3,
                                              exif: ExifMetadata(make: "m", model: "mo", lens: "l", exposureTime: 0.008,
                                                                 fNumber: 2.8, iso: 100, focalLength: 35, dateTaken: "2024-05-01T14:30:05",
                                                                 latitude: -33.8688, longitude: 151.2093, altitude: 58),
                                              phash: PerceptualHash(bits: 0x00FF_00FF_00FF_00FF), thumbhash: "th+/=", grey: grey))
        // Every member set: each object holds every key, in order, and the line reads back.
        let full: [(JournalRecord, [[String]])] = [
            (seen, [["photo", "type"],
                    ["credit", "description", "height", "id", "name", "page", "photographer", "rating", "source_id", "source_url", "width"],
                    ["author", "author_url", "licence", "licence_url", "page_url", "service", "service_url"]]),
            (original, [["file", "id", "type"],
                        ["bytes", "exif", "grey", "height", "path", "phash", "sha256", "thumbhash", "width"],
                        ["altitude", "date_taken", "exposure_time", "f_number", "focal_length", "iso", "latitude", "lens",
                         "longitude", "make", "model"]]),
            (.thumbnail(id: 7, file: ThumbnailFile(size: 256, path: "thumbs/256/007/7-x.jpg", width: 256, height: 192)),
             [["file", "id", "type"], ["height", "path", "size", "width"]]),
            (.failed(id: 8, reason: samples.string(length: 80)), [["id", "reason", "type"]]),
        ]
        for (record, keys) in full {
            let line = Self.text(try record.json())
            #expect(try EncoderFixtures.keySets(line) == keys, "\(line)")
            #expect(line.firstIndex(of: "\n") == nil)
            #expect(try JSONDecoder().decode(JournalRecord.self, from: Data(line.utf8)) == record)
        }
        #expect(Self.text(try seen.json()).hasPrefix(#"{"photo":{"credit":{"author":"a","author_url":"u","licence":"CC BY 4.0","#))
        // None set: every optional member left out, as the encoder's `encodeIfPresent` left it out.
        let none: [(JournalRecord, String)] = [
            (.seen(PhotoMetadata(id: -1, name: "")), #"{"photo":{"id":-1,"name":""},"type":"seen"}"#),
            (.original(id: 0, file: OriginalFile(path: "", sha256: "", bytes: 0)),
             #"{"file":{"bytes":0,"path":"","sha256":""},"id":0,"type":"original"}"#),
            (.thumbnail(id: 0, file: ThumbnailFile(size: 0, path: "")), #"{"file":{"path":"","size":0},"id":0,"type":"thumbnail"}"#),
            (.failed(id: 8, reason: "a/b \"c\""), #"{"id":8,"reason":"a/b \"c\"","type":"failed"}"#),
        ]
        for (record, expected) in none {
            #expect(Self.text(try record.json()) == expected)
        }
    }

    @Test func nonFiniteNumberFailsNamingThePhoto() {
        let record = JournalRecord.seen(PhotoMetadata(id: 41, name: "n", rating: .infinity))
        #expect(throws: JSONText.NonFinite.self) { try record.json() }
        #expect { try Journal.encodeLine(record, path: "journal") } throws: { error in
            guard case let GalleryError.encoding(path, reason) = error else { return false }
            return path == "journal" && reason.contains("photo 41") && reason.contains("NaN or infinity")
        }
    }

    /// The fixture's records appended by `Journal` make the fixture's file, byte for byte, and the file
    /// the encoder wrote replays to the state of the records.
    @Test func aJournalOfTheFixturesRecordsIsTheEncodersFile() throws {
        let old = try EncoderFixtures.bytes("journal-records.jsonl")
        let decoder = JSONDecoder()
        let records = try EncoderFixtures.lines("journal-records.jsonl").map {
            try decoder.decode(JournalRecord.self, from: Data($0.utf8))
        }
        let folder = TemporaryFolder()
        defer { folder.remove() }
        do {
            let journal = try Journal(folder: folder.path)
            for record in records { try journal.append(record) }
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + GalleryNaming.journalPath))
        #expect(Self.text(Array(written)) == Self.text(old))
        let other = TemporaryFolder()
        defer { other.remove() }
        try AtomicFile.write(old, to: other.path + "/" + GalleryNaming.journalPath)
        let replayed = try Journal(folder: other.path).state
        #expect(replayed == GalleryState(replaying: records))
        #expect(replayed == (try Journal(folder: folder.path).state))
        #expect(replayed.order.count > 30)
    }
}
