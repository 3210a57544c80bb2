/// Decodes HTML character references as a browser does (the WHATWG tokenizer's rules): every named
/// reference of ``HTMLEntityTable`` (longest match; the legacy names also without a semicolon), and
/// numeric ones (`&#233;`, `&#xE9;`, the semicolon optional) with HTML's rules for code points that are
/// not characters. Anything else, `&` included, stays as written.
enum HTMLCharacterReferences {
    /// `text` with its references decoded. In an attribute value (`inAttribute`), a legacy name with
    /// no semicolon followed by `=` or a letter or digit is left as written (`?a=1&copy=2` keeps `&copy`).
    static func decode(_ text: String, inAttribute: Bool = false) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let input = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < input.count {
            guard input[index] == "&" else {
                out.append(input[index])
                index += 1
                continue
            }
            let (scalars, end) = index + 1 < input.count && input[index + 1] == "#"
                ? numeric(input, at: index + 1) : named(input, at: index + 1, inAttribute: inAttribute)
            if let scalars {
                out.append(contentsOf: scalars)
                index = end
            } else {
                out.append("&")
                index += 1
            }
        }
        return String(out)
    }

    /// Names (with their semicolon where they have one) to the text they stand for.
    static let names: [String: String] = {
        var table: [String: String] = [:]
        table.reserveCapacity(HTMLEntityTable.count)
        for line in HTMLEntityTable.text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let scalars = fields.dropFirst().compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            table[String(fields[0])] = String(String.UnicodeScalarView(scalars))
        }
        return table
    }()

    /// The longest name (`CounterClockwiseContourIntegral;`) and the longest legacy name without semicolon.
    private static let longestName = 32, longestLegacyName = 6

    /// A named reference whose name starts at `start` (after `&`): its text and the index after it.
    private static func named(_ input: [Unicode.Scalar], at start: Int, inAttribute: Bool) -> ([Unicode.Scalar]?, Int) {
        var end = start
        while end < input.count, end - start < longestName, isAlphanumeric(input[end]) { end += 1 }
        guard end > start else { return (nil, start) }
        let run = String(String.UnicodeScalarView(input[start..<end]))
        if end < input.count, input[end] == ";", let text = names[run + ";"] {
            return (Array(text.unicodeScalars), end + 1)
        }
        // A legacy name without semicolon, the longest that begins the run (`&notit;` is `¬it;`).
        var length = min(end - start, longestLegacyName)
        while length >= 2 {
            let name = String(String.UnicodeScalarView(input[start..<start + length]))
            if let text = names[name] {
                let next = start + length < input.count ? input[start + length] : nil
                if inAttribute, let next, next == "=" || isAlphanumeric(next) { return (nil, start) }
                return (Array(text.unicodeScalars), start + length)
            }
            length -= 1
        }
        return (nil, start)
    }

    /// A numeric reference whose `#` is at `hash`: its character and the index after it.
    private static func numeric(_ input: [Unicode.Scalar], at hash: Int) -> ([Unicode.Scalar]?, Int) {
        var index = hash + 1
        var radix: UInt32 = 10
        if index < input.count, input[index] == "x" || input[index] == "X" {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        let digitsStart = index
        while index < input.count, let digit = Character(input[index]).hexDigitValue, UInt32(digit) < radix {
            value = min(value * radix + UInt32(digit), 0x11_0000)  // past the last code point: stays past it
            index += 1
        }
        guard index > digitsStart else { return (nil, hash) }  // `&#` or `&#x` with no digits: text
        if index < input.count, input[index] == ";" { index += 1 }
        return ([character(for: value)], index)
    }

    /// HTML's character for a numeric reference to `value`: U+FFFD for NUL, surrogates and values past
    /// U+10FFFF; the Windows-1252 character for 0x80–0x9F where it has one; the code point itself otherwise.
    static func character(for value: UInt32) -> Unicode.Scalar {
        if let replaced = windows1252[value] { return replaced }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    private static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}",
        0x8E: "\u{017D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}", 0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}",
        0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
    }
}
