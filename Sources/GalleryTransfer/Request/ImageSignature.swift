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

    /// The longest signature we check (WebP: "RIFF" + size + "WEBP").
    static let bytesNeeded = 12

    /// The format whose signature `prefix` starts with, or nil.
    public static func detect(_ prefix: some Collection<UInt8>) -> ImageSignature? {
        let b = Array(prefix.prefix(bytesNeeded))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return .gif }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// A printable rendering of the first bytes for error messages ("<!DOCTYPE h").
    static func describe(_ prefix: [UInt8]) -> String {
        if prefix.isEmpty { return "an empty body" }
        let shown = prefix.prefix(bytesNeeded).map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "." }
        return "\"" + shown.joined() + "\""
    }
}
