/// JSON text written byte for byte as Foundation's `JSONEncoder` writes it with `.sortedKeys` and
/// `.withoutEscapingSlashes`, compact or (`pretty`) with `.prettyPrinted` too: the journal's lines and the
/// manifest's photos are written a record at a time, and `JSONEncoder` (a tree of boxed values per record,
/// then sorted dictionaries) was most of what a record cost. The files stay readable by, and identical to
/// what, the encoder wrote before (JSONTextTests compares the two on generated values).
///
/// The writer does not sort: callers name an object's keys in ascending order of their UTF-8 bytes, as
/// `.sortedKeys` orders them (``sortedKeys(_:)`` sorts keys only known at run time, a dictionary's).
/// Strings are escaped as the encoder escapes them: `"` and `\` with a backslash, U+0008, U+000C, U+000A,
/// U+000D and U+0009 as `\b \f \n \r \t`, the other control characters below U+0020 as `\u00xx` (lower-case
/// hex), everything else (`/`, DEL, non-ASCII) as its UTF-8 bytes. Numbers: an `Int` in decimal; a `Double`
/// as its `description` less a trailing `.0` (`1`, `0.1`, `1e-05`, `1e+16`); a NaN or an infinity, which
/// the encoder refuses too, throws ``NonFinite``.
///
/// The journal's records, a shard's photo lines and the manifest's photos have this one coding (they are
/// `Decodable` only): fixtures written by `JSONEncoder` keep the bytes the same (JournalRecordJSONTests,
/// ShardLineJSONTests, ManifestJSONTests).
struct JSONText {
    /// A NaN or an infinity was to be written.
    struct NonFinite: Error {
        /// What a file's error says, for photo `id`.
        func reason(photo id: Int) -> String {
            "photo \(id) holds a number JSON cannot hold (NaN or infinity) in its rating, EXIF or copy check"
        }
    }

    /// The text so far.
    private(set) var bytes: [UInt8] = []
    /// Whether to lay out as `.prettyPrinted` does: a member a line, two spaces a level, `" : "`.
    let pretty: Bool
    private var indent: Int
    /// For each open object or array, whether it has no member yet.
    private var isEmpty: [Bool] = []

    /// Starts an empty text; `indent` is the level of the first value (pretty only), for a value that
    /// the encoder would have written inside others (a manifest photo is at level 2, in `photos`).
    init(pretty: Bool, indent: Int = 0, capacity: Int = 512) {
        self.pretty = pretty
        self.indent = indent
        bytes.reserveCapacity(capacity)
        isEmpty.reserveCapacity(4)
    }

    // MARK: containers

    /// `{`; then ``key(_:)`` and a value for each member, keys in ascending order; then ``endObject()``.
    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    /// `}`, on a line of its own when pretty (after an empty line for an empty object, as the encoder does).
    mutating func endObject() {
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    /// `[`; then ``element()`` before each value; then ``endArray()``.
    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        open()
    }

    /// `]`, laid out as ``endObject()``.
    mutating func endArray() {
        close()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts an object's member: the separator, the indent, the quoted key and the colon.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        colon()
    }

    /// ``key(_:)-(StaticString)`` for a key known only at run time (escaped as strings are).
    mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.removeLast()  // string's closing quote, put back by colon()
        colon()
    }

    /// Starts an array's element: the separator and the indent.
    mutating func element() {
        separate()
    }

    private mutating func open() {
        isEmpty.append(true)
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
        }
    }

    private mutating func close() {
        isEmpty.removeLast()
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent -= 1
            writeIndent()
        }
    }

    private mutating func separate() {
        if isEmpty[isEmpty.count - 1] {
            isEmpty[isEmpty.count - 1] = false
        } else {
            bytes.append(UInt8(ascii: ","))
            if pretty { bytes.append(UInt8(ascii: "\n")) }
        }
        if pretty { writeIndent() }
    }

    private mutating func colon() {
        if pretty {
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
    }

    /// Leading spaces of the current level (also of the first value, when it starts nested).
    mutating func writeIndent() {
        for _ in 0..<indent { bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
    }

    // MARK: values

    /// A string, quoted and escaped.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var mark = 0
            for i in 0..<utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<i]))
                mark = i + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              Self.hexDigit(byte >> 4), Self.hexDigit(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer in decimal.
    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: digits[(20 - count)...])
        }
    }

    /// A finite double as the encoder prints it; a NaN or an infinity throws ``NonFinite``.
    mutating func double(_ value: Double) throws(NonFinite) {
        guard value.isFinite else { throw NonFinite() }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Bytes known to be JSON already (a literal such as `true`).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Bytes another writer made JSON already (a value `JSONEncoder` wrote with the same options).
    mutating func raw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    // MARK: optional members (the encoder leaves out a nil: synthesized `encodeIfPresent`)

    mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        int(value)
    }

    mutating func field(_ name: StaticString, _ value: Double?) throws(NonFinite) {
        guard let value else { return }
        key(name)
        try double(value)
    }

    /// The keys of a dictionary in the order `.sortedKeys` writes them: by their UTF-8 bytes.
    static func sortedKeys<V>(_ dictionary: [String: V]) -> [String] {
        dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
