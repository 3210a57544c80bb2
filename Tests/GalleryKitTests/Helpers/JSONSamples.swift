import Foundation
import GalleryImaging
import GallerySync
@testable import GalleryKit
@testable import PhotoGallery

/// Seeded awkward values for comparing the hand-written JSON (``JSONText``) with `JSONEncoder`: strings
/// from a palette of every control character, the characters JSON escapes, `/`, DEL, multi-byte and
/// invisible characters; doubles from random bit patterns, decimals, integers and the edges of the
/// decimal/exponent switch. The same seed gives the same values on every run, so a failure replays.
struct JSONSamples {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Every control character, the characters JSON escapes or might, and a spread of UTF-8 lengths.
    static let palette: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
        "\"", "\\", "/", "\u{7F}", " ", "a", "Z", "0", "9", ":", ",", "{", "}", "[", "]", "'", "<", ">", "&",
        "é", "ß", "€", "日", "🌅", "🏔️", "\u{301}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{FEFF}",
        "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\r\n", "\\u0000", "\\\"", "//", "http://127.0.0.1/a/b.jpg",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// A string of up to `length` pieces of the palette, or plain text.
    mutating func string(length: Int = 12) -> String {
        if chance(20) { return "photo \(int(0...1_000_000))" }
        return (0..<int(0...length)).map { _ in Self.palette[int(0...Self.palette.count - 1)] }.joined()
    }

    mutating func optionalString() -> String? { chance(40) ? nil : string() }

    mutating func optionalInt() -> Int? { chance(40) ? nil : integer() }

    mutating func integer() -> Int {
        switch int(0...5) {
        case 0: [Int.min, Int.max, 0, -1, 1, 9, 10, 99, 100][int(0...8)]
        case 1: Int(bitPattern: UInt(random.next()))
        default: int(-100_000...10_000_000)
        }
    }

    /// A finite double from one of several families (all of them print differently).
    mutating func double() -> Double {
        switch int(0...9) {
        case 0:
            var value: Double
            repeat { value = Double(bitPattern: random.next()) } while !value.isFinite
            return value
        case 1:
            return [0.0, -0.0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1e15, 1e16, 1e17, 9_007_199_254_740_993,
                    123_456_789_012_345_678, 1e-4, 1e-5, 0.0001, 0.00001, 5e-324, 2.2250738585072014e-308,
                    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .ulpOfOne,
                    .pi, 88.25, 97.5, 1.0 / 3][int(0...25)]
        case 2:
            return Double(int(-1 << 53...1 << 53))  // integral: printed without ".0"
        case 3:
            return (Double.random(in: -2...2, using: &random) * 1_000).rounded() / 1_000  // CopyCheck's rounding
        case 4:
            return Double(int(1...6_000)) / 100  // an EXIF exposure or f-number, a rating
        default:
            return Double.random(in: 0..<1, using: &random) * pow(10, Double(int(-12...22)))
                * (chance(20) ? -1 : 1)
        }
    }

    mutating func optionalDouble() -> Double? { chance(40) ? nil : double() }

    mutating func credit() -> PhotoCredit? {
        chance(50) ? nil : PhotoCredit(author: optionalString(), authorURL: optionalString(), licence: optionalString(),
                                        licenceURL: optionalString(), pageURL: optionalString(),
                                        service: optionalString(), serviceURL: optionalString())
    }

    mutating func exif() -> ExifMetadata? {
        chance(50) ? nil : ExifMetadata(make: optionalString(), model: optionalString(), lens: optionalString(),
                                         exposureTime: optionalDouble(), fNumber: optionalDouble(), iso: optionalInt(),
                                         focalLength: optionalDouble(), dateTaken: optionalString(),
                                         latitude: optionalDouble(), longitude: optionalDouble(), altitude: optionalDouble())
    }

    mutating func metadata() -> PhotoMetadata {
        PhotoMetadata(id: integer(), name: string(), photographer: optionalString(), rating: optionalDouble(),
                      description: optionalString(), sourceURL: optionalString(), width: optionalInt(),
                      height: optionalInt(), page: optionalInt(), sourceID: optionalString(), credit: credit())
    }

    mutating func original() -> OriginalFile {
        OriginalFile(path: string(), sha256: string(), bytes: integer(), width: optionalInt(), height: optionalInt(),
                     exif: exif(), phash: chance(40) ? nil : PerceptualHash(bits: random.next()),
                     thumbhash: optionalString(),
                     grey: chance(40) ? nil : GreyReduction(pixels: (0..<576).map { _ in UInt8.random(in: 0...255, using: &random) }))
    }

    mutating func thumbnail() -> ThumbnailFile {
        ThumbnailFile(size: integer(), path: string(), width: optionalInt(), height: optionalInt())
    }

    mutating func record() -> JournalRecord {
        switch int(0...3) {
        case 0: .seen(metadata())
        case 1: .original(id: integer(), file: original())
        case 2: .thumbnail(id: integer(), file: thumbnail())
        default: .failed(id: integer(), reason: string(length: 40))
        }
    }

    /// An alignment with every member set to one of the awkward doubles.
    mutating func copyCheck() -> CopyCheck {
        let grey = GreyReduction(pixels: [UInt8](repeating: 128, count: 576))!
        var check = CopyCheck(grey, grey)
        (check.scaleX, check.scaleY, check.offsetX, check.offsetY) = (double(), double(), double(), double())
        (check.coverage, check.outside, check.trim, check.cellError) = (double(), double(), double(), double())
        return check
    }

    /// A manifest photo with any subset of its members, as a run, a failure or a group of copies leaves it.
    mutating func manifestPhoto() -> GalleryManifest.Photo {
        var thumbnails: [String: String] = [:]
        for _ in 0..<int(0...4) { thumbnails[chance(80) ? String(int(1...4096)) : string()] = string() }
        var photo = GalleryManifest.Photo(
            id: integer(), name: string(), photographer: optionalString(), rating: optionalDouble(),
            sourceURL: optionalString(), original: optionalString(), sha256: optionalString(), bytes: optionalInt(),
            width: optionalInt(), height: optionalInt(), thumbnails: thumbnails,
            status: [.ok, .failed, .optedOut][int(0...2)], error: optionalString(), exif: exif())
        photo.sourceID = optionalString()
        photo.credit = credit()
        photo.phash = optionalString()
        photo.thumbhash = optionalString()
        if chance(30) {
            photo.duplicateOf = integer()
            photo.distance = optionalInt()
            photo.matchedBy = optionalString()
            photo.alignment = chance(50) ? copyCheck() : nil
        }
        if chance(20) { photo.copies = (0..<int(0...3)).map { _ in integer() } }
        return photo
    }
}

extension JSONSamples {
    /// A comment with any subset of its optional members.
    mutating func comment() -> Comment {
        Comment(id: integer(), body: string(length: 30),
                user: chance(30) ? nil : PhotoUser(username: string(), fullname: optionalString()),
                createdAt: optionalString())
    }

    /// A journal entry with any subset of what a run records.
    mutating func entry() -> GalleryState.Entry {
        var entry = GalleryState.Entry(metadata: metadata())
        entry.original = chance(70) ? original() : nil
        entry.failure = optionalString()
        for _ in 0..<int(0...3) {
            let thumbnail = thumbnail()
            entry.thumbnails[thumbnail.size] = thumbnail
        }
        return entry
    }
}

/// Lines `JSONEncoder` wrote for seeded samples (``JSONSamples``) while the journal, the shard parts and the
/// manifest were still `Encodable`, kept in `Fixtures/json`: the hand-written coding must go on writing
/// exactly these bytes, so files of either version read alike.
enum EncoderFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/json")

    /// The file's bytes.
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The file's lines, newline left out (JSON Lines: 300 journal records of seed 10, 150 shard lines
    /// of seed 40).
    static func lines(_ name: String) throws -> [String] {
        String(decoding: try bytes(name), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The pretty manifest photos of seed 20, one after another, each followed by a line holding U+001E.
    static func manifestPhotos() throws -> [String] {
        String(decoding: try bytes("manifest-photos.txt"), as: UTF8.self).components(separatedBy: "\n\u{1e}\n").dropLast()
    }

    /// The keys of every object in `json`, outermost first, each set sorted.
    static func keySets(_ json: String) throws -> [[String]] {
        var sets: [[String]] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                sets.append(object.keys.sorted())
                for key in object.keys.sorted() { walk(object[key]!) }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.utf8)))
        return sets
    }
}
