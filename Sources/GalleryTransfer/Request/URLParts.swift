/// The few parts of an absolute URL the engine needs (scheme, host:port, path), split without Foundation:
/// this runs several times per file, and URLComponents was a visible share of the per-file cost.
/// libcurl does the full parsing and rejects what this lets through (CURLE_URL_MALFORMAT).
struct URLParts: Equatable {
    /// Lower-cased scheme, e.g. "https".
    let scheme: String
    /// Lower-cased "host" or "host:port", without user info; empty for e.g. `file:///x`.
    let authority: String
    /// The percent-encoded path, without query or fragment ("" when absent).
    let path: String

    init?(_ url: String) {
        let b = Array(url.utf8)
        var i = 0
        while i < b.count, Self.isSchemeByte(b[i], first: i == 0) { i += 1 }
        guard i > 0, i + 2 < b.count, b[i] == 0x3A, b[i + 1] == 0x2F, b[i + 2] == 0x2F else { return nil }
        scheme = String(decoding: b[0..<i], as: UTF8.self).lowercased()
        var start = i + 3
        var end = start
        while end < b.count, b[end] != 0x2F, b[end] != 0x3F, b[end] != 0x23 { end += 1 }
        if let at = b[start..<end].lastIndex(of: 0x40) { start = at + 1 }
        authority = String(decoding: b[start..<end], as: UTF8.self).lowercased()
        var pathEnd = end
        while pathEnd < b.count, b[pathEnd] != 0x3F, b[pathEnd] != 0x23 { pathEnd += 1 }
        path = String(decoding: b[end..<pathEnd], as: UTF8.self)
    }

    private static func isSchemeByte(_ c: UInt8, first: Bool) -> Bool {
        let alpha = (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
        return first ? alpha : alpha || (0x30...0x39).contains(c) || c == 0x2B || c == 0x2D || c == 0x2E
    }

    /// Decodes %XX escapes (invalid escapes stay as they are; invalid UTF-8 is replaced).
    static func percentDecoded(_ s: String) -> String {
        let b = Array(s.utf8)
        guard b.contains(0x25) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == 0x25, i + 2 < b.count, let hi = hex(b[i + 1]), let lo = hex(b[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
