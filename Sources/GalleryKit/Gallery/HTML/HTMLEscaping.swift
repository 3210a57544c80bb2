/// Escaping for text nodes and attribute values.
///
/// One function for both: escaping `"` and `'` in text costs nothing and means a value can
/// never break out of an attribute whichever quote it sits in. Characters HTML forbids
/// (NUL and other C0/C1 controls, lone surrogates cannot occur in a Swift String) become
/// U+FFFD, as a browser would show them. Bidi controls are kept, since they can be a
/// legitimate part of a right-to-left name; the page isolates untrusted text in `<bdi>`
/// so they cannot reorder anything around it.
public enum HTMLEscaping {
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
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
