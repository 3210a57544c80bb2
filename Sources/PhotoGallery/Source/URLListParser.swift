import Foundation

/// A line of a URL list that was not accepted.
public struct RejectedLine: Sendable, Hashable {
    /// 1-based line number in the input.
    public var line: Int
    /// The line as written.
    public var text: String
    /// Why it was not used.
    public var reason: String
}

/// Turns a plain list of image URLs into pseudo-photos, so a list and an API run share one
/// pipeline.
///
/// One URL per line; blank lines and lines starting with `#` are skipped; leading and
/// trailing whitespace is ignored; only absolute http and https URLs are accepted, every
/// other line is reported in `rejected`. The same URL twice gives one photo.
public struct URLListParser: Sendable {
    /// One photo per usable line, in file order.
    public private(set) var photos: [Photo] = []
    /// Lines that were not usable.
    public private(set) var rejected: [RejectedLine] = []
    /// The line (from 0) of each photo, in the order of `photos`.
    public private(set) var lines: [Int] = []

    /// Parses `text`, the contents of a URL list file, keeping only the lines of `shard`
    /// (lines i, from 0, with i mod count == index: appending lines never moves earlier ones).
    public init(parsing text: String, shard: ShardSpec = .whole) {
        // Editors on Windows start a UTF-8 file with a byte-order mark; it is not part of the URL.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // Split on `isNewline`, not "\n": Swift treats "\r\n" as one Character, so a CRLF
        // file would otherwise come out as a single line.
        self.init(lines: TextLines.all(Substring(text)), shard: shard)
    }

    /// Parses a list's lines, already split (``URLListPieces`` hands on a piece's), numbering them from 1 in
    /// the order given and keeping only those of `shard`.
    init(lines rawLines: [Substring], shard: ShardSpec = .whole) {
        var seen: Set<Int> = []
        for (offset, rawLine) in rawLines.enumerated() {
            guard shard.owns(line: offset) else { continue }
            let line = Self.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            // A plain URL (most lines) is its own absolute form, and its name is read from its bytes; any
            // other goes through Foundation's parser (``PlainWebURL``).
            let absolute: String, name: String
            if let stem = PlainWebURL.stem(line) {
                (absolute, name) = (line, stem)
            } else if let url = PhotoSelector.webURL(line) {
                (absolute, name) = (url.absoluteString, Self.name(for: url))
            } else {
                rejected.append(RejectedLine(line: offset + 1, text: line, reason: "not an absolute http or https URL"))
                continue
            }
            let id = Self.stableID(for: absolute)
            guard seen.insert(id).inserted else { continue }
            photos.append(Photo(id: id, name: name, imageURL: absolute))
            lines.append(offset)
        }
    }

    /// `line` without leading and trailing whitespace (`CharacterSet.whitespacesAndNewlines`). A line that
    /// starts and ends with a printable ASCII byte, as URLs do, is already trimmed: Foundation's trim, which
    /// goes through NSString, cost more than the rest of a line's parse.
    static func trimmed(_ line: Substring) -> String {
        let utf8 = line.utf8
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return String(line)
        }
        return line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A positive id that is the same for the same URL on every run and machine.
    ///
    /// FNV-1a 64 over the URL's UTF-8, kept to 53 bits so the id survives a trip through
    /// JavaScript or any JSON reader that uses doubles. Swift's `Hasher` is seeded per
    /// process, so it cannot be used here.
    public static func stableID(for url: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let id = Int(hash & 0x001F_FFFF_FFFF_FFFF)
        return id == 0 ? 1 : id
    }

    /// The last path component without its extension, percent-decoded; the host when the
    /// path has none.
    static func name(for url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let last = components?.path.split(separator: "/").last.map(String.init) ?? ""
        let stem = last.contains(".") ? String(last[..<last.lastIndex(of: ".")!]) : last
        if !stem.isEmpty { return stem }
        return components?.host ?? url.absoluteString
    }
}
