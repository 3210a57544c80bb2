import Foundation

/// The conformance corpus at `shared/corpus` (see its README.md), located without hard-coded
/// absolute paths so tests run from /work/main, from a worktree, or from a fresh clone that has
/// `shared/` beside it.
public enum Corpus {
    /// Environment variable that overrides the search with an explicit corpus folder.
    public static let environmentVariable = "FETCH_GALLERY_CORPUS"

    /// The corpus folder: `$FETCH_GALLERY_CORPUS` if set, else the first `shared/corpus` found
    /// walking up from `filePath` (the calling test file), from this source file, and from the
    /// current directory.
    public static func root(filePath: String = #filePath) throws(TestSupportError) -> String {
        if let explicit = ProcessInfo.processInfo.environment[environmentVariable], !explicit.isEmpty {
            guard isCorpus(explicit) else { throw .corpusNotFound(searched: [explicit]) }
            return explicit
        }
        let starts = [filePath, #filePath, FileManager.default.currentDirectoryPath]
        for start in starts {
            var folder = URL(fileURLWithPath: start).standardizedFileURL
            while folder.path != "/" {
                let candidate = folder.appendingPathComponent("shared/corpus").path
                if isCorpus(candidate) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw .corpusNotFound(searched: starts)
    }

    /// Absolute path of `relative` (e.g. `"exif-orientation/Landscape_6.jpg"`), checked to exist.
    public static func path(_ relative: String, filePath: String = #filePath) throws(TestSupportError) -> String {
        let full = try root(filePath: filePath) + "/" + relative
        guard FileManager.default.isReadableFile(atPath: full) else { throw .corpusFileMissing(path: full) }
        return full
    }

    /// The bytes of `relative`.
    public static func bytes(_ relative: String, filePath: String = #filePath) throws(TestSupportError) -> [UInt8] {
        let full = try path(relative, filePath: filePath)
        guard let data = FileManager.default.contents(atPath: full) else { throw .corpusFileMissing(path: full) }
        return [UInt8](data)
    }

    /// Every row of `expected.tsv`.
    public static func expectations(filePath: String = #filePath) throws(TestSupportError) -> [Expectation] {
        let full = try path("expected.tsv", filePath: filePath)
        guard let text = try? String(contentsOfFile: full, encoding: .utf8) else { throw .corpusFileMissing(path: full) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.map { line in
            let values = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, name) in header.enumerated() where index < values.count { row[name] = values[index] }
            return Expectation(row: row)
        }
    }

    private static func isCorpus(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/expected.tsv")
    }
}

extension Corpus {
    /// One row of `expected.tsv`; the README explains each column.
    public struct Expectation: Sendable, CustomStringConvertible {
        public enum Outcome: String, Sendable {
            /// Must decode.
            case ok
            /// Must be rejected with an error (no crash, hang or huge allocation).
            case error
            /// Damaged but decodable with warnings: decoding or a clear error are both fine.
            case either
        }

        /// Path relative to the corpus folder.
        public let file: String
        public let expect: Outcome
        /// Stored size before EXIF orientation, for `.ok` rows.
        public let width: Int?
        public let height: Int?
        /// Channels after the usual libpng expansion (grey 1, grey+alpha 2, RGB 3, RGBA 4).
        public let channels: Int?
        public let bitDepth: Int?
        public let exifOrientation: Int?
        /// Size after applying the orientation.
        public let displayWidth: Int?
        public let displayHeight: Int?
        /// libpng or libjpeg warns but decodes.
        public let decoderWarning: Bool
        public let notes: String

        init(row: [String: String]) {
            func int(_ key: String) -> Int? { row[key].flatMap { Int($0) } }
            file = row["file"] ?? ""
            expect = Outcome(rawValue: row["expect"] ?? "") ?? .error
            width = int("width")
            height = int("height")
            channels = int("channels")
            bitDepth = int("bit_depth")
            exifOrientation = int("exif_orientation")
            displayWidth = int("display_width")
            displayHeight = int("display_height")
            decoderWarning = row["decoder_warning"] == "yes"
            notes = row["notes"] ?? ""
        }

        /// The file name, so `@Test(arguments:)` output stays readable.
        public var description: String { file }
    }
}
