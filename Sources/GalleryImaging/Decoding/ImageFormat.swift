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
    /// HEIC / HEIF (`....ftypheic`, `mif1`, ...): HEVC in a HEIF container (phones' photos); decoded through libheif.
    case heic
    /// AVIF (`....ftypavif`): AV1 in a HEIF container; decoded through libheif.
    case avif
    /// BMP (`BM`); recognised, not decoded.
    case bmp
    /// TIFF (`II*\0` / `MM\0*`); recognised, not decoded.
    case tiff

    /// Whether ``ImageDecoder`` can decode this format. The others are recognised only so the error
    /// can say "unsupported TIFF" rather than "not an image".
    public var isDecodable: Bool { self != .bmp && self != .tiff }

    /// The usual file-name extension: `jpg`, `png`, `webp`, `gif`, `heic`, `avif`, `bmp`, `tif`.
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
    /// `tiff`, `heic`, `heif`, `avif`; any case), or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "tif", "tiff": self = .tiff
        case "heic", "heif", "hif": self = .heic
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
        if starts(Array("ftyp".utf8), at: 4), let heif = heifBrand(bytes) { return heif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        return nil
    }

    /// AVIF or HEIC from an ISO BMFF `ftyp` box's major and compatible brands (AVIF wins when a file
    /// lists both; `mif1`/`msf1` alone is a HEIF of unknown codec, taken as HEIC), nil for other
    /// BMFF files (MP4, ...).
    private static func heifBrand(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard bytes.count >= 16 else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(bytes.count, size >= 16 ? size : 16, 256)
        var brands: [String] = []
        for at in stride(from: 8, to: end - 3, by: 4) where at != 12 {
            brands.append(String(decoding: bytes[at..<(at + 4)], as: UTF8.self))
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        return brands.contains(where: heif.contains) ? .heic : nil
    }

    /// The format whose signature starts `bytes`, or nil when none does.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { sniff($0) }
    }
}
