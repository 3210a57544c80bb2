/// A container format recognised from its leading magic bytes.
///
/// Only the bytes decide: a file name or a Content-Type header can lie (an HTML error page served as
/// `photo.jpg` is common), the signature cannot.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// JPEG (`FF D8 FF`); decoded.
    case jpeg
    /// PNG (`89 50 4E 47 0D 0A 1A 0A`); decoded.
    case png
    /// GIF (`GIF87a` / `GIF89a`); the first frame is decoded.
    case gif
    /// WebP (`RIFF....WEBP`): lossy, lossless, alpha; an animation's first frame is decoded.
    case webp
    /// BMP (`BM`); recognised, not decoded.
    case bmp
    /// TIFF (`II*\0` / `MM\0*`); recognised, not decoded.
    case tiff

    /// Whether ``ImageDecoder`` can decode this format. The others are recognised only so the error
    /// can say "unsupported TIFF" rather than "not an image".
    public var isDecodable: Bool { self == .jpeg || self == .png || self == .webp || self == .gif }

    /// The usual file-name extension: `jpg`, `png`, `webp`, `gif`, `bmp`, `tif`.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: rawValue
        }
    }

    /// The media type a server should send it with (`image/jpeg`, `image/webp`, ...).
    public var mediaType: String { "image/" + rawValue }

    /// The format a file-name extension names (`jpg`, `jpeg`, `png`, `webp`, `gif`, `bmp`, `tif`,
    /// `tiff`; any case), or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "tif", "tiff": self = .tiff
        case let other: self.init(rawValue: other)
        }
    }

    /// The format whose signature starts `bytes`, or nil when none does.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + magic.count else { return false }
            for (i, byte) in magic.enumerated() where bytes[offset + i] != byte { return false }
            return true
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        return nil
    }

    /// The format whose signature starts `bytes`, or nil when none does.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { sniff($0) }
    }
}
