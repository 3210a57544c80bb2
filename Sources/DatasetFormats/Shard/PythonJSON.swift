/// JSON text as Python's `json.dumps(obj, indent=4)` writes it, byte for byte, for the flat objects
/// img2dataset writes (a sample's metadata, a shard's stats): `ensure_ascii` escapes (every character
/// outside ' '...'~' as \uXXXX, surrogate pairs above U+FFFF, lowercase hex), floats as `repr` writes
/// them, `NaN` / `Infinity`, `None` as `null`, and no newline at the end.
enum PythonJSON {
    /// A JSON value of the subset img2dataset writes.
    indirect enum Value {
        case null
        case string(String)
        case integer(Int64)
        case double(Double)
        case bool(Bool)
        case object([(String, Value)])
        case array([Value])
    }

    /// `indent: nil`: one line, `json.dumps(obj)`'s `, ` and `: ` separators.
    static func dumps(_ value: Value, indent: Int? = 4) -> String {
        var out = ""
        write(value, level: 0, indent: indent, into: &out)
        return out
    }

    private static func write(_ value: Value, level: Int, indent: Int?, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .double(let number): out += float(number)
        case .string(let text): string(text, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            guard let indent else {
                out += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { out += ", " }
                    write(item, level: level + 1, indent: nil, into: &out)
                }
                out += "]"
                return
            }
            let inner = String(repeating: " ", count: indent * (level + 1))
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                write(item, level: level + 1, indent: indent, into: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent * level) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            guard let indent else {
                out += "{"
                for (index, (name, member)) in members.enumerated() {
                    if index > 0 { out += ", " }
                    string(name, into: &out)
                    out += ": "
                    write(member, level: level + 1, indent: nil, into: &out)
                }
                out += "}"
                return
            }
            let inner = String(repeating: " ", count: indent * (level + 1))
            out += "{\n"
            for (index, (name, member)) in members.enumerated() {
                out += inner
                string(name, into: &out)
                out += ": "
                write(member, level: level + 1, indent: indent, into: &out)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent * level) + "}"
        }
    }

    static func string(_ text: String, into out: inout String) {
        out += "\""
        // Most text (keys, URLs, hex digests) is printable ASCII without a quote or backslash: copied whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }) {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                if scalar.value > 0xFFFF {
                    let value = scalar.value - 0x10000
                    out += hex(0xD800 + (value >> 10)) + hex(0xDC00 + (value & 0x3FF))
                } else {
                    out += hex(scalar.value)
                }
            }
        }
        out += "\""
    }

    private static func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// Python's `float.__repr__`: the shortest digits that round-trip (Swift's `description` finds the
    /// same ones), laid out in fixed notation when the decimal point falls within -4 < point <= 16, else as
    /// `d.ddde+XX`; fixed notation always has a `.` (`1.0`).
    static func float(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        var text = Substring(number.description)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...].replacingOccurrences(of: "+", with: "")) ?? 0
            text = text[..<e]
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = Array(whole + fraction)
        var point = whole.count + exponent  // value = 0.digits × 10^point
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        let sign = negative ? "-" : ""
        if digits.isEmpty { return sign + "0.0" }
        let ds = String(digits)
        if point > -4 && point <= 16 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + ds }
            if point >= digits.count { return sign + ds + String(repeating: "0", count: point - digits.count) + ".0" }
            return sign + String(digits[..<point]) + "." + String(digits[point...])
        }
        let e = point - 1
        let mantissa = digits.count > 1 ? String(digits[0]) + "." + String(digits[1...]) : String(digits[0])
        let magnitude = String(abs(e))
        return sign + mantissa + "e" + (e < 0 ? "-" : "+") + (magnitude.count < 2 ? "0" : "") + magnitude
    }
}

import Foundation
