/// How thumbnails are encoded: `auto` (PNG when the image has alpha, else JPEG), or always JPEG, PNG,
/// WebP or AVIF. JPEG flattens alpha onto white; PNG, WebP and AVIF keep it.
public enum ThumbnailFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case auto
    case jpeg
    case png
    case webp
    case avif

    /// The format a bitmap with or without alpha is encoded in.
    public func resolved(hasAlpha: Bool) -> ImageFormat {
        switch self {
        case .auto: hasAlpha ? .png : .jpeg
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        }
    }

    /// The one file extension every thumbnail gets, or nil for `auto` (it depends on the image).
    public var fixedExtension: String? { self == .auto ? nil : resolved(hasAlpha: false).fileExtension }
}
