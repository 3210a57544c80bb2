import Foundation

/// The conformance corpus the repository carries in `Tests/Corpus` (README.md, expected.tsv and
/// the images, with their licences), found beside this source file: a clone anywhere has it.
public enum Corpus {
    /// One row of expected.tsv.
    public struct Entry: Sendable, CustomStringConvertible {
        /// Path relative to the corpus folder, e.g. `png-suite/basn0g01.png`.
        public let file: String
        /// `ok`, `error` or `either`.
        public let expect: String
        /// Stored size for `ok` rows (before orientation), nil otherwise.
        public let width: Int?
        public let height: Int?
        /// Channels after the usual expansion (1...4; CMYK JPEG says 4 and decodes to RGB).
        public let channels: Int?
        /// The EXIF Orientation value when the file has one.
        public let exifOrientation: Int?
        public let notes: String

        public var description: String { file }
    }

    /// The corpus folder: `Tests/Corpus` of the checkout this file was compiled from.
    public static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Corpus").path

    /// Absolute path of a corpus file; a missing file is an error naming it (a test failure, never a
    /// crash of the test process).
    public static func path(_ relative: String) throws(TestSupportError) -> String {
        let file = root + "/" + relative
        guard FileManager.default.isReadableFile(atPath: file) else { throw .corpusFileMissing(path: file) }
        return file
    }

    /// The bytes of a corpus file.
    public static func bytes(_ relative: String) throws(TestSupportError) -> [UInt8] {
        let file = try path(relative)
        guard let data = FileManager.default.contents(atPath: file) else { throw .corpusFileMissing(path: file) }
        return [UInt8](data)
    }

    /// Every row of expected.tsv, in file order (empty when the corpus is missing).
    public static let entries: [Entry] = {
        guard let text = try? String(contentsOfFile: root + "/expected.tsv", encoding: .utf8) else {
            return []
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst()
        func column(_ name: String) -> Int { header.firstIndex(of: name) ?? -1 }
        let (file, expect, width, height, channels, exif, notes) =
            (column("file"), column("expect"), column("width"), column("height"), column("channels"),
             column("exif_orientation"), column("notes"))
        return lines.map { row in
            func field(_ i: Int) -> String { i >= 0 && i < row.count ? row[i] : "" }
            return Entry(file: field(file), expect: field(expect), width: Int(field(width)),
                         height: Int(field(height)), channels: Int(field(channels)),
                         exifOrientation: Int(field(exif)), notes: field(notes))
        }
    }()
}
