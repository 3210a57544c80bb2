/// One 512-byte ustar header, laid out as Python's `tarfile` (which webdataset's TarWriter uses) lays out
/// a regular file's: octal fields zero-padded and NUL-terminated, magic `ustar\0` version `00`, the
/// checksum as six octal digits, a NUL and a space, empty device fields.
struct TarHeader {
    var name: String
    var prefix: String = ""
    var mode: Int
    var size: Int
    var mtime: Int
    var user: String
    var group: String

    /// The largest size the 12-byte octal field holds (8 GiB - 1).
    static let maxSize = (1 << 33) - 1

    func encoded() -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        Self.put(name, at: 0, width: 100, into: &block)
        Self.putOctal(mode & 0o7777, at: 100, width: 8, into: &block)
        Self.putOctal(0, at: 108, width: 8, into: &block)  // uid
        Self.putOctal(0, at: 116, width: 8, into: &block)  // gid
        Self.putOctal(size, at: 124, width: 12, into: &block)
        Self.putOctal(mtime, at: 136, width: 12, into: &block)
        for i in 148..<156 { block[i] = 0x20 }  // checksum counted as spaces
        block[156] = UInt8(ascii: "0")  // regular file
        Self.put("ustar\u{0}00", at: 257, width: 8, into: &block)
        Self.put(user, at: 265, width: 32, into: &block)
        Self.put(group, at: 297, width: 32, into: &block)
        Self.put(prefix, at: 345, width: 155, into: &block)
        let checksum = block.reduce(0) { $0 + Int($1) }
        Self.putOctal(checksum, at: 148, width: 7, into: &block)  // six digits and a NUL; the space stays
        return block
    }

    /// Splits a long name into ustar's prefix and name at a `/`, as POSIX allows; nil when it cannot fit.
    static func split(_ member: String) -> (prefix: String, name: String)? {
        let bytes = Array(member.utf8)
        if bytes.count <= 100 { return ("", member) }
        guard bytes.count <= 256 else { return nil }
        for cut in stride(from: min(bytes.count - 1, 155), through: 1, by: -1) where bytes[cut] == UInt8(ascii: "/") {
            let name = bytes.count - cut - 1
            if name > 0 && name <= 100 {
                return (String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[(cut + 1)...], as: UTF8.self))
            }
        }
        return nil
    }

    private static func put(_ text: String, at offset: Int, width: Int, into block: inout [UInt8]) {
        for (i, byte) in text.utf8.prefix(width).enumerated() { block[offset + i] = byte }
    }

    /// `width - 1` octal digits, zero-padded, then a NUL (Python's `itn` for values that fit).
    private static func putOctal(_ value: Int, at offset: Int, width: Int, into block: inout [UInt8]) {
        var rest = value
        for i in stride(from: offset + width - 2, through: offset, by: -1) {
            block[i] = UInt8(ascii: "0") + UInt8(rest & 7)
            rest >>= 3
        }
        block[offset + width - 1] = 0
    }
}
