/// A path pattern as robots.txt (RFC 9309 §2.2.3) and TDMRep's `location` write them: `*` matches any
/// sequence of characters, a final `$` anchors the end, everything else matches itself, and a pattern
/// without `$` matches every path that starts like it.
///
/// Percent-encoding is normalised on both sides before comparing (RFC 9309 §2.2.2): `%XX` of an
/// unreserved character is decoded, other escapes have their hex digits upper-cased, and bytes that
/// are neither ASCII nor allowed are compared as their escapes. So `/a%7Eb` and `/a~b` are the same
/// path, `/a%2fb` and `/a/b` are not.
public struct PathPattern: Sendable, Hashable {
    /// The pattern as written (for messages).
    public let text: String
    let pieces: [[UInt8]]   // the literal runs between `*`s
    let anchored: Bool      // ended with `$`

    public init(_ text: String) {
        self.text = text
        var bytes = PathPattern.normalize(Array(text.utf8))
        anchored = bytes.last == UInt8(ascii: "$")
        if anchored { bytes.removeLast() }
        pieces = bytes.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// How specific the pattern is: its length in octets, as RFC 9309 counts for the longest match.
    public var specificity: Int { text.utf8.count }

    /// Whether `path` (a URL's path and query, starting with `/`) matches.
    public func matches(_ path: String) -> Bool {
        PathPattern.match(pieces, anchored: anchored, PathPattern.normalize(Array(path.utf8)))
    }

    static func match(_ pieces: [[UInt8]], anchored: Bool, _ path: [UInt8]) -> Bool {
        // The first piece is a prefix; each later one (after a `*`) is found at its leftmost place,
        // which is enough: leftmost placement leaves the most room for the rest. An anchored pattern's
        // last piece must end the path (tried at the end, after the pieces before it fit).
        guard let first = pieces.first, path.starts(with: first) else { return false }
        var at = first.count
        if pieces.count == 1 { return !anchored || at == path.count }
        for (index, piece) in pieces.enumerated().dropFirst() {
            let isLast = index == pieces.count - 1
            if isLast && anchored {
                return path.count - at >= piece.count && path.suffix(piece.count).elementsEqual(piece)
            }
            guard let found = find(piece, in: path, from: at) else { return false }
            at = found + piece.count
        }
        return true
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        if needle.isEmpty { return start }
        guard haystack.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ b: UInt8) -> Bool {
        (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b)
            || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func normalize(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) {
                let value = hi << 4 | lo
                if isUnreserved(value) { out.append(value) } else { out += [b, hexDigits[Int(hi)], hexDigits[Int(lo)]] }
                i += 3
                continue
            }
            if b >= 0x80 || b < 0x21 {
                out += [UInt8(ascii: "%"), hexDigits[Int(b >> 4)], hexDigits[Int(b & 0xF)]]
            } else {
                out.append(b)
            }
            i += 1
        }
        return out
    }
}
