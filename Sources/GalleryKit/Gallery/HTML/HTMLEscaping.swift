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
