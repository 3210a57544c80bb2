import Foundation

/// The shared conformance corpus (`shared/corpus`: README.md, expected.tsv and the images), found
/// without hard-coding a checkout location: `FETCH_GALLERY_CORPUS` if set, else the first
/// `shared/corpus` in an ancestor of this source file or of the working directory.
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

    /// The corpus folder, or nil when it cannot be found.
    public static let root: String? = locate()

    /// The corpus folder; stops the test process with a clear message when it is missing.
    public static func requireRoot() -> String {
        guard let root else {
            fatalError("shared/corpus not found: set FETCH_GALLERY_CORPUS or run from a checkout next to shared/")
        }
        return root
    }

    /// Absolute path of a corpus file.
    public static func path(_ relative: String) -> String { requireRoot() + "/" + relative }

    /// The bytes of a corpus file.
    public static func bytes(_ relative: String) throws(TestSupportError) -> [UInt8] {
        let file = path(relative)
        guard let data = FileManager.default.contents(atPath: file) else { throw .corpusFileMissing(path: file) }
        return [UInt8](data)
    }

    /// Every row of expected.tsv, in file order (empty when the corpus is missing).
    public static let entries: [Entry] = {
        guard let root, let text = try? String(contentsOfFile: root + "/expected.tsv", encoding: .utf8) else {
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

    private static func locate() -> String? {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["FETCH_GALLERY_CORPUS"],
           fm.fileExists(atPath: env + "/expected.tsv") {
            return env
        }
        for start in [URL(fileURLWithPath: #filePath), URL(fileURLWithPath: fm.currentDirectoryPath)] {
            var dir = start.deletingLastPathComponent()
            while dir.path != "/" {
                let candidate = dir.appendingPathComponent("shared/corpus")
                if fm.fileExists(atPath: candidate.path + "/expected.tsv") { return candidate.path }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }
}
