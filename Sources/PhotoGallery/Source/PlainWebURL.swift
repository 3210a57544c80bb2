/// An http(s) URL that Foundation's parser would give back as it is, told from its bytes alone: a URL list
/// has a line per photo and a photo page links to its source, and parsing each with `URLComponents` cost more
/// than the rest of the line's work. Anything outside this form takes Foundation's parser as before.
///
/// The form: `http://` or `https://` (lower case), a host of letters, digits, dots and hyphens with an
/// optional port of 1-5 digits, then nothing, or a path and query (`/` or `?` first) of URL characters only:
/// unreserved (letters, digits, `-._~`), sub-delimiters (`!$&'()*+,;=`), `:@/?`, and `%` followed by two hex
/// digits. No fragment, no space, nothing Foundation would re-encode.
enum PlainWebURL {
    /// Whether `text` has the form above.
    static func isPlain(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in parts(bytes) != nil }
    }

    /// The name a URL list gives the photo at `text` (``URLListParser/name(for:)``: the last path segment
    /// without its extension), or nil when `text` is not plain, its path has a percent escape (the name is
    /// decoded), or that name is empty (the host is used then).
    static func stem(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard let (pathStart, pathEnd) = parts(bytes) else { return nil }
            let path = UnsafeBufferPointer(rebasing: bytes[pathStart..<pathEnd])
            guard !path.contains(UInt8(ascii: "%")) else { return nil }
            // The last non-empty segment (split(separator:) leaves the empty ones out).
            var end = path.count
            while end > 0, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var start = end
            while start > 0, path[start - 1] != UInt8(ascii: "/") { start -= 1 }
            guard start < end else { return nil }
            var stemEnd = end
            if let dot = path[start..<end].lastIndex(of: UInt8(ascii: ".")) { stemEnd = dot }
            guard stemEnd > start else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: path[start..<stemEnd]), as: UTF8.self)
        }
    }

    /// Where the path starts and ends in a plain URL's bytes (the path may be empty), or nil.
    private static func parts(_ bytes: UnsafeBufferPointer<UInt8>) -> (pathStart: Int, pathEnd: Int)? {
        let n = bytes.count
        var i: Int
        if hasPrefix(bytes, "http://") { i = 7 } else if hasPrefix(bytes, "https://") { i = 8 } else { return nil }
        let hostStart = i
        while i < n, isHostByte(bytes[i]) { i += 1 }
        guard i > hostStart else { return nil }
        if i < n, bytes[i] == UInt8(ascii: ":") {
            i += 1
            let portStart = i
            while i < n, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            guard (1...5).contains(i - portStart) else { return nil }
        }
        guard i == n || bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "?") else { return nil }
        let pathStart = i
        var pathEnd = n
        while i < n {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < n, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else { return nil }
                i += 3
                continue
            }
            guard isURLByte(byte) else { return nil }
            if byte == UInt8(ascii: "?"), pathEnd == n { pathEnd = i }
            i += 1
        }
        return (pathStart, pathEnd)
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        let p = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return zip(bytes, p).allSatisfy { $0 == $1 }
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Unreserved, sub-delimiters, and `:@/?`.
    private static func isURLByte(_ byte: UInt8) -> Bool {
        if isAlphanumeric(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"): return true
        default: return false
        }
    }
}
