import Foundation

/// A file's size as a photo page shows it ("45 KB", "1.2 MB", "1.23 GB"): the text of Foundation's
/// `ByteCountFormatter.string(fromByteCount:countStyle: .file)` in its default (adaptive, English)
/// form, without it: that builds an ICU number formatter for every call, a tenth of a photo's CPU on a
/// gallery of small photos. Decimal units; no decimals in KB, one in MB, two from GB on; the value
/// rounded half to even as ICU rounds it (from its shortest decimal form); thousands grouped by commas.
/// Counts outside 0 ..< 10^15 bytes go to Foundation.
enum ByteCountText {
    static func file(_ bytes: Int64) -> String {
        guard bytes >= 0, bytes < 1_000_000_000_000_000 else {
            return ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
        }
        switch bytes {
        case 0: return "Zero KB"
        case 1: return "1 byte"
        case ..<1_000: return "\(bytes) bytes"
        case ..<1_000_000: return number(Double(bytes) / 1e3, decimals: 0) + " KB"
        case ..<1_000_000_000: return number(Double(bytes) / 1e6, decimals: 1) + " MB"
        case ..<1_000_000_000_000: return number(Double(bytes) / 1e9, decimals: 2) + " GB"
        default: return number(Double(bytes) / 1e12, decimals: 2) + " TB"
        }
    }

    /// `value` (1 ..< 10^6 here, so its description has no exponent) with at most `decimals` decimals
    /// and no trailing zeros, rounded half to even on its shortest decimal digits, grouped by thousands.
    static func number(_ value: Double, decimals: Int) -> String {
        let text = value.description
        let parts = text.split(separator: ".", maxSplits: 1)
        var digits = Array(parts[0].utf8).map { Int($0 - UInt8(ascii: "0")) }
        var fraction = parts.count > 1 ? Array(parts[1].utf8).map { Int($0 - UInt8(ascii: "0")) } : []
        if fraction == [0] { fraction = [] }
        let kept = Array(fraction.prefix(decimals))
        let dropped = Array(fraction.dropFirst(decimals))
        digits += kept
        if let first = dropped.first {
            let rest = dropped.dropFirst().contains { $0 != 0 }
            let up = first > 5 || (first == 5 && (rest || (digits.last ?? 0) % 2 == 1))
            if up {
                var i = digits.count - 1
                while i >= 0 {
                    if digits[i] == 9 { digits[i] = 0; i -= 1 } else { digits[i] += 1; break }
                }
                if i < 0 { digits.insert(1, at: 0) }
            }
        }
        let integerDigits = digits.count - kept.count
        // The text, written as bytes: commas every three integer digits, the fraction without its
        // trailing zeros.
        var fractionEnd = digits.count
        while fractionEnd > integerDigits && digits[fractionEnd - 1] == 0 { fractionEnd -= 1 }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + digits.count / 3 + 1)
        for i in 0..<integerDigits {
            if i > 0 && (integerDigits - i) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "0") + UInt8(digits[i]))
        }
        if fractionEnd > integerDigits {
            out.append(UInt8(ascii: "."))
            for i in integerDigits..<fractionEnd { out.append(UInt8(ascii: "0") + UInt8(digits[i])) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
