/// The lines of a text, split where Swift's `Character.isNewline` splits them (LF, VT, FF, CR, CR LF as one,
/// NEL U+0085, LS U+2028, PS U+2029), found in its UTF-8 bytes instead of its Characters: a URL list has a
/// line per photo, and walking it Character by Character cost a grapheme-cluster check at every byte.
/// The same lines: each of those is a grapheme cluster of its own (a control, or CR LF), so no other
/// character can hold one of their bytes.
enum TextLines {
    /// The end of the line that starts at `start` in `text`, and where the next line starts (`text`'s end when
    /// the line is its last).
    static func line(in text: Substring, from start: String.Index) -> (end: String.Index, next: String.Index?) {
        let utf8 = text.utf8
        var i = start
        while i < utf8.endIndex {
            let byte = utf8[i]
            let length: Int
            switch byte {
            case 0x0A, 0x0B, 0x0C:
                length = 1
            case 0x0D:
                let after = utf8.index(after: i)
                length = after < utf8.endIndex && utf8[after] == 0x0A ? 2 : 1
            case 0xC2:
                let after = utf8.index(after: i)
                length = after < utf8.endIndex && utf8[after] == 0x85 ? 2 : 0
            case 0xE2:
                let second = utf8.index(after: i)
                guard second < utf8.endIndex, utf8[second] == 0x80 else { length = 0; break }
                let third = utf8.index(after: second)
                length = third < utf8.endIndex && (utf8[third] == 0xA8 || utf8[third] == 0xA9) ? 3 : 0
            default:
                length = 0
            }
            if length > 0 { return (i, utf8.index(i, offsetBy: length)) }
            i = utf8.index(after: i)
        }
        return (utf8.endIndex, nil)
    }

    /// Every line of `text`, empty ones included (as `split(omittingEmptySubsequences: false,
    /// whereSeparator: \.isNewline)`).
    static func all(_ text: Substring) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        while true {
            let (end, next) = line(in: text, from: start)
            lines.append(text[start..<end])
            guard let next else { return lines }
            start = next
        }
    }
}
