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

    /// Whether `text` has a byte that is not printable ASCII, or is one of the five escaped characters: the
    /// names, paths and numbers of a page mostly have none, and are then written as they are.
    @inline(__always)
    static func needsEscaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == 0x26 || byte == 0x3C || byte == 0x3E
                || byte == 0x22 || byte == 0x27 {
                return true
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
