import Foundation

/// A bounds-checked view of a TIFF-structured EXIF block (the APP1 payload after `Exif\0\0`, a PNG
/// `eXIf` chunk, a WebP `EXIF` chunk). Every offset and count comes from the file, so every read is
/// checked and answers nil on junk; nothing here can trap or loop.
struct TIFFBlock {
    /// One 12-byte IFD entry.
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// Where the entry's 4-byte value field sits (its value, or the offset of its value).
        var field: Int
    }

    let bytes: UnsafeRawBufferPointer
    let little: Bool

    /// The block, or nil when it does not start with a TIFF header (`II*\0` or `MM\0*`).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42 else { return nil }
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        let a = Int(bytes[at]), b = Int(bytes[at + 1])
        return little ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
        return hi << 16 | lo
    }

    /// IFD0's offset.
    var firstIFD: Int? { u32(4) }

    /// The entries of the IFD at `offset` that lie wholly inside the block (a count past the end is
    /// cut to what is there: at most 65,535 entries of 12 bytes, so bounded).
    func entries(at offset: Int) -> [Entry] {
        guard let count = u16(offset) else { return [] }
        var out: [Entry] = []
        for index in 0..<count {
            let at = offset + 2 + index * 12
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { break }
            out.append(Entry(tag: tag, type: type, count: n, field: at + 8))
        }
        return out
    }

    /// Bytes per value of a TIFF type, nil for unknown types.
    static func width(of type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1       // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2             // SHORT, SSHORT
        case 4, 9, 11: 4         // LONG, SLONG, FLOAT
        case 5, 10, 12: 8        // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    /// Where the entry's data starts (in the field when it fits in 4 bytes, else at the offset the
    /// field holds), after checking the whole `count` x width lies inside the block.
    func dataOffset(_ entry: Entry) -> Int? {
        guard let width = Self.width(of: entry.type), entry.count >= 1 else { return nil }
        let size = entry.count * width  // count < 2^32, width <= 8: no overflow in Int
        let start = size <= 4 ? entry.field : u32(entry.field)
        guard let start, start >= 0, start <= bytes.count, size <= bytes.count - start else { return nil }
        return start
    }

    /// An unsigned integer value (BYTE, SHORT or LONG), element `index`.
    func integer(_ entry: Entry, index: Int = 0) -> Int? {
        guard index < entry.count, let start = dataOffset(entry) else { return nil }
        switch entry.type {
        case 1: return Int(bytes[start + index])
        case 3: return u16(start + 2 * index)
        case 4: return u32(start + 4 * index)
        default: return nil
        }
    }

    /// A RATIONAL or SRATIONAL value, element `index`, as a numerator and denominator.
    func rational(_ entry: Entry, index: Int = 0) -> (numerator: Int, denominator: Int)? {
        guard entry.type == 5 || entry.type == 10, index < entry.count, let start = dataOffset(entry),
              let n = u32(start + 8 * index), let d = u32(start + 8 * index + 4) else { return nil }
        if entry.type == 10 { return (Int(Int32(truncatingIfNeeded: n)), Int(Int32(truncatingIfNeeded: d))) }
        return (n, d)
    }

    /// A rational as a finite Double; nil for a zero denominator.
    func real(_ entry: Entry, index: Int = 0) -> Double? {
        guard let (n, d) = rational(entry, index: index), d != 0 else { return nil }
        return Double(n) / Double(d)
    }

    /// An ASCII (or UNDEFINED, as some lens tags are) string: up to the first NUL, at most `limit`
    /// bytes, trimmed; invalid UTF-8 is repaired, not trusted. Nil when empty.
    func string(_ entry: Entry, limit: Int = 256) -> String? {
        guard entry.type == 2 || entry.type == 7, let start = dataOffset(entry) else { return nil }
        let slice = bytes[start..<(start + min(entry.count, limit))]
        let text = String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
