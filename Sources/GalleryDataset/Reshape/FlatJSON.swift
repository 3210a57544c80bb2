import GalleryRunner

/// A sample's `.json` member as img2dataset writes it (one flat object of strings, numbers, booleans and nulls, in
/// ASCII) read without JSONSerialization, which took most of a reshard's reading time, into the values
/// ``OldSample/value(_:)`` makes of JSONSerialization's. Nil for anything else: a list or object as a value, a byte
/// outside ASCII, a `\u` escape, an integer of 19 digits or more, text that is not such an object. The caller then
/// reads the member with JSONSerialization, which decides (and words the error for bad JSON).
enum FlatJSON {
    static func object(_ bytes: [UInt8]) -> [String: InputValue]? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer)
            return parser.object()
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func object() -> [String: InputValue]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields: [String: InputValue] = [:]
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipSpace()
                    guard take(UInt8(ascii: "\"")), let name = string() else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard let value = value() else { return nil }
                    fields[name] = value
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipSpace()
            return i == bytes.count ? fields : nil
        }

        private mutating func value() -> InputValue? {
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                return string().map(InputValue.string)
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return word("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return nil
            }
        }

        /// The rest of a string whose opening quote was taken.
        private mutating func string() -> String? {
            var out: [UInt8] = []
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    // A `\u` escape is left to JSONSerialization.
                    guard let unescaped = JSONEscape.unescaped(bytes[i]) else { return nil }
                    i += 1
                    out.append(unescaped)
                case 0x20..<0x80: out.append(byte)
                default: return nil
                }
            }
            return nil
        }

        /// JSON's number grammar; an integer (no fraction, no exponent) as `.int`, another as `.double`.
        private mutating func number() -> InputValue? {
            let start = i
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // No digit may follow a leading zero.
            } else if digits() == 0 {
                return nil
            }
            var integer = true
            if take(UInt8(ascii: ".")) {
                integer = false
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                integer = false
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            // JSONSerialization turns Int64.min into a double: an integer of 19 digits or more is left to it.
            if integer { return text.utf8.count - (text.hasPrefix("-") ? 1 : 0) <= 18 ? Int64(text).map(InputValue.int) : nil }
            return Double(text).map(InputValue.double)
        }

        private mutating func digits() -> Int {
            let start = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - start
        }

        private mutating func word(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard i + count <= bytes.count else { return false }
            for k in 0..<count where bytes[i + k] != text.utf8Start[k] { return false }
            i += count
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        private mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }
    }
}
