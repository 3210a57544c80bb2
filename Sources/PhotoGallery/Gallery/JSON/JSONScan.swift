/// Reads back, strictly, the JSON that ``JSONText`` writes (compact: no white space), a value at a time,
/// for the hot record types: a journal's records are read back for every photo when the gallery is
/// written, and `JSONDecoder` (a tree of values, then a keyed container per object) was most of that.
///
/// Everything here answers nil for what it does not read exactly as `JSONDecoder` would: white space,
/// `null`, a number in a form an `Int` field would not take as written (a fraction, an exponent, `-0`,
/// beyond `Int`), a number a `Double` cannot hold, a lone surrogate, invalid UTF-8, a raw control
/// character, a key it does not expect or sees twice. The caller then hands the text to `JSONDecoder`,
/// so the result is always the decoder's: this only takes the common case off its hands
/// (JournalRecordScanTests compares the two on generated and mangled lines).
struct JSONScan {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position == bytes.count }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    // MARK: objects

    /// Reads `{`; then ``nextKey(_:after:)`` until it answers `.end`.
    mutating func beginObject() -> Bool { take(UInt8(ascii: "{")) }

    /// What ``nextKey(_:after:)`` found.
    enum Member: Equatable {
        /// The index of the key in the table; its value is next.
        case key(Int)
        /// `}`: the object is over.
        case end
        /// Anything else: give up.
        case unreadable
    }

    /// The next member's key, as its index in `keys` (which must hold no escapable characters), reading
    /// the separator and the colon; `.unreadable` for a key not in `keys` or already in `seen` (a bit per
    /// index, updated).
    mutating func nextKey(_ keys: [StaticString], seen: inout UInt32) -> Member {
        if take(UInt8(ascii: "}")) { return .end }
        if seen != 0 && !take(UInt8(ascii: ",")) { return .unreadable }
        guard take(UInt8(ascii: "\"")) else { return .unreadable }
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\") {
            position += 1
        }
        let name = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard take(UInt8(ascii: "\"")), take(UInt8(ascii: ":")) else { return .unreadable }
        for (index, key) in keys.enumerated() where key.utf8CodeUnitCount == name.count {
            guard key.withUTF8Buffer({ $0.elementsEqual(name) }) else { continue }
            guard seen & (1 << index) == 0 else { return .unreadable }
            seen |= 1 << index
            return .key(index)
        }
        return .unreadable
    }

    // MARK: values

    /// A string, its escapes undone; nil for anything `JSONDecoder` might read otherwise.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position - 1]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            if byte < 0x20 { return nil }
            position += 1
        }
        return nil
    }

    /// The rest of a string that holds escapes, from its first byte at `start`.
    private mutating func escapedString(from start: Int) -> String? {
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                if let byte = JSONEscape.unescaped(escape) {
                    utf8.append(byte)
                } else {
                    // `\u`; surrogates (pairs or lone) are left to the decoder.
                    guard escape == UInt8(ascii: "u"), let value = hex4(), !(0xD800...0xDFFF).contains(value),
                          let scalar = Unicode.Scalar(value) else { return nil }
                    utf8.append(contentsOf: String(Character(scalar)).utf8)
                }
            default:
                if byte < 0x20 { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// An integer written as one: `-?(0|[1-9][0-9]*)` within `Int`, not `-0`; nil for any other number.
    mutating func int() -> Int? {
        let negative = take(UInt8(ascii: "-"))
        let start = position
        var magnitude: UInt64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            magnitude = sum
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0"), !continuesNumber() else { return nil }
        if negative {
            guard magnitude != 0, magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// Whether a number goes on past its integer part (a fraction or an exponent).
    private func continuesNumber() -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        return byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// A number in JSON's grammar as the nearest `Double` (correctly rounded, as the decoder reads it);
    /// nil for anything else, for one beyond `Double`'s range, and for one that rounds to zero from
    /// non-zero digits.
    mutating func double() -> Double? {
        let start = position
        _ = take(UInt8(ascii: "-"))
        let integer = digits()
        guard integer > 0, integer == 1 || bytes[position - integer] != UInt8(ascii: "0") else { return nil }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        let mantissaEnd = position
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            guard digits() > 0 else { return nil }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        if value == 0, bytes[start..<mantissaEnd].contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) {
            return nil
        }
        return value
    }

    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - start
    }
}
