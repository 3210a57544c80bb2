/// Recognises image files by their first bytes ("magic"), whatever Content-Type claims.
public enum ImageSignature: String, Sendable {
    /// `FF D8 FF`.
    case jpeg
    /// `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// `GIF87a` or `GIF89a`.
    case gif
    /// `RIFF` + size + `WEBP`.
    case webp
    /// An ISO BMFF `ftyp` box whose major brand is HEIF's (`heic`, `heix`, `mif1`, ...).
    case heic
    /// An ISO BMFF `ftyp` box whose major brand is `avif` or `avis`.
    case avif

    /// The longest signature we check (WebP: "RIFF" + size + "WEBP").
    static let bytesNeeded = 12

    /// The format whose signature `prefix` starts with, or nil.
    public static func detect(_ prefix: some Collection<UInt8>) -> ImageSignature? {
        let b = Array(prefix.prefix(bytesNeeded))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return .gif }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) {
            switch String(decoding: b[8..<12], as: UTF8.self) {
            case "avif", "avis": return .avif
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": return .heic
            default: return nil
            }
        }
        return nil
    }

    /// What the bytes are instead, for error messages: `HTML text ("<!DOCTYPE ht")`, `an empty body`.
    /// `prefix` is the start of the body (the first chunk libcurl delivered, at least `bytesNeeded` bytes
    /// unless the body was shorter); only its first 1 KB is looked at.
    static func describe(_ prefix: [UInt8]) -> String {
        if prefix.isEmpty { return "an empty body" }
        let shown = prefix.prefix(bytesNeeded).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }
        return kind(of: Array(prefix.prefix(1024))) + " (\"" + shown.joined() + "\")"
    }

    /// A name for common non-image bodies: what a captive portal, an error page or a wrong link serves.
    static func kind(of head: [UInt8]) -> String {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0x1F, 0x8B]) { return "gzip data" }
        if starts(Array("%PDF".utf8)) { return "a PDF document" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        if starts(Array("II*\u{0}".utf8)) || starts(Array("MM\u{0}*".utf8)) { return "a TIFF image (not supported)" }
        if starts(Array("BM".utf8)) { return "a BMP image (not supported)" }
        if starts(Array("ftyp".utf8), at: 4) { return "an ISO media file (MP4 or another non-image brand)" }
        let printable = head.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard printable else { return "binary data" }
        var text = String(decoding: head, as: UTF8.self).lowercased()
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        text = String(text.drop { $0.isWhitespace })
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.contains("<head")
            || text.contains("<body") || text.contains("<html") { return "HTML text" }
        if text.hasPrefix("<svg") || (text.hasPrefix("<?xml") && text.contains("<svg")) { return "SVG text (not supported)" }
        if text.hasPrefix("<?xml") || text.hasPrefix("<") { return "XML text" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON text" }
        return "plain text"
    }
}
