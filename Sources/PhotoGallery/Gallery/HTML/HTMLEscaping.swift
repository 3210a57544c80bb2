/// Escaping for text nodes and attribute values.
///
/// One function for both: escaping `"` and `'` in text costs nothing and means a value can
/// never break out of an attribute whichever quote it sits in. Characters HTML forbids
/// (NUL and other C0/C1 controls, lone surrogates cannot occur in a Swift String) become
/// U+FFFD, as a browser would show them. So do the explicit bidi embedding, override and
/// isolate controls (U+202A–U+202E, U+2066–U+2069): right-to-left text needs none of them
/// to display correctly, and their classic use in a name is a spoof ("\u{202E}gpj.exe"
/// shows as "exe.jpg"). The implicit marks (LRM, RLM, ALM) stay, and the page isolates
/// untrusted text in `<bdi>` so nothing in it can reorder the text around it.
public enum HTMLEscaping {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, safe in element content and quoted attributes.
    public static func escape(_ text: String) -> String {
        needsEscaping(text) ? escapedScalars(text) : text
    }

    /// `escape(text)` appended to `out`.
    static func escape(_ text: String, into out: inout [UInt8]) {
        out.append(contentsOf: (needsEscaping(text) ? escapedScalars(text) : text).utf8)
    }

    /// Whether `text` has a character the escape changes: one of the five escaped characters, an ASCII
    /// control (tab and line breaks included: they stay, but take the scalar path), a C1 control (U+0080 to
    /// U+009F: UTF-8 C2 80 to C2 9F) or an explicit bidi control (U+202A to U+202E: E2 80 AA to AE; U+2066 to
    /// U+2069: E2 81 A6 to A9). The names, paths and numbers of a page mostly have none, nor do its arrows,
    /// dots and signs (non-ASCII, but none of those), and are then written as they are. A lead byte never
    /// occurs inside another character's UTF-8, so each byte is looked at in turn.
    @inline(__always)
    static func needsEscaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let n = bytes.count
            var i = 0
            while i < n {
                let byte = bytes[i]
                if byte < 0x80 {
                    if byte < 0x20 || byte == 0x7F || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22
                        || byte == 0x27 { return true }
                } else if byte == 0xC2 {
                    if i + 1 < n, bytes[i + 1] <= 0x9F { return true }
                } else if byte == 0xE2, i + 2 < n {
                    let (second, third) = (bytes[i + 1], bytes[i + 2])
                    if second == 0x80, third >= 0xAA, third <= 0xAE { return true }
                    if second == 0x81, third >= 0xA6, third <= 0xA9 { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// The escape, scalar by scalar.
    static func escapedScalars(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}": out += "\u{FFFD}"
            case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
