import Foundation

/// Why a plan file cannot be used; every case names the file (and the line, from 1).
public enum PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read.
    case unreadable(path: String, reason: String)
    /// A line is not what a plan holds there.
    case badLine(path: String, line: Int, reason: String)
    /// The file ends before its end line: it was cut short (a copy or a write that did not finish).
    case truncated(path: String, lines: Int)
    /// The end line counts another number of photos than the file holds.
    case countMismatch(path: String, says: Int, holds: Int)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "plan \(path): \(reason)"
        case let .badLine(path, line, reason): "plan \(path), line \(line): \(reason)"
        case let .truncated(path, lines):
            "plan \(path) is truncated: no end line after line \(lines) (run 'fetch-gallery plan' again)"
        case let .countMismatch(path, says, holds):
            "plan \(path): its end line counts \(says) photos, the file holds \(holds) (run 'fetch-gallery plan' again)"
        }
    }
}

/// The plan file (`plan.jsonl` in the gallery folder): the listing read once, one selected photo a line.
///
/// JSON Lines: a header `{"plan":{"source":...,"version":1}}`, then one ``SelectedPhoto`` per line in
/// listing order, then `{"end":{"photos":N}}`, so a file cut short is told from a whole one. The photo
/// is kept as the source's feed gave it (``Photo``), with the rendition chosen and its listing page:
/// nothing in the format belongs to one service. Shards take its photo lines i (from 0) with
/// i mod N == K (``ShardSpec/owns(line:)``).
public enum PlanFile {
    /// The plan's name in the gallery folder.
    public static let name = "plan.jsonl"
    /// The format version written in the header.
    public static let version = 1

    /// The first line.
    public struct Header: Sendable, Hashable, Codable {
        /// What the photos were listed from (recorded as the gallery's source).
        public var source: String
        /// ``PlanFile/version``.
        public var version: Int
    }

    /// The last line.
    public struct End: Sendable, Hashable, Codable {
        /// Photo lines in the file.
        public var photos: Int
        /// The address the listing pages came from (a run from the plan fetches images from no more
        /// private an address, as a run from the listing does); nil for a URL list.
        public var listingAddress: String?

        enum CodingKeys: String, CodingKey {
            case photos
            case listingAddress = "listing_address"
        }
    }

    struct HeaderLine: Codable { var plan: Header }
    struct EndLine: Codable { var end: End }

    /// The plan of the gallery at `folder`.
    public static func path(in folder: String) -> String { folder + "/" + name }

    /// Reads the header of the plan at `path`.
    public static func header(at path: String) throws(PlanError) -> Header {
        let reader = try PlanReader(path: path)
        return reader.header
    }
}
