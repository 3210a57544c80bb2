/// What `--image-size`, `--resize-mode`, the filters and the encoder options ask of each image.
public struct DatasetImageOptions: Sendable, Equatable {
    public enum EncodeFormat: String, Sendable, CaseIterable { case jpg, png, webp, avif }

    public var imageSize = 256
    /// `--image-size WxH` with `--resize-mode fixed`: the height (`imageSize` is then the width); nil: square.
    public var imageHeight: Int?
    public var resizeMode = DatasetResizeMode.border
    public var resizeOnlyIfBigger = false
    public var encodeFormat = EncodeFormat.jpg
    /// JPEG/WebP/AVIF quality; for PNG img2dataset's compression level 0...9 (our PNG encoder picks its own).
    public var encodeQuality = 95
    /// Keep the downloaded bytes when they are already in `encodeFormat` and nothing is resized.
    public var skipReencode = false
    /// Refuse images whose short side is smaller ("image too small").
    public var minImageSize = 0
    /// Refuse images with more pixels ("image area too large").
    public var maxImageArea = Double.infinity
    /// Refuse images whose long side / short side is larger ("aspect ratio too large").
    public var maxAspectRatio = Double.infinity

    public init() {}

    /// The option errors img2dataset's Resizer raises, in its words.
    public func validate() throws(DatasetError) {
        guard imageSize >= 1, imageHeight.map({ $0 >= 1 }) ?? true else { throw .invalidOption("--image-size must be at least 1") }
        if imageHeight != nil, resizeMode != .fixed {
            throw .invalidOption("--image-size WIDTHxHEIGHT needs --resize-mode fixed (\(resizeMode.rawValue) takes one size)")
        }
        switch encodeFormat {
        case .png:
            guard (0...9).contains(encodeQuality) else {
                throw .invalidOption("For png, encode quality represents compression which must be between 0 and 9, got \(encodeQuality)")
            }
        case .jpg:
            guard (1...100).contains(encodeQuality) else { throw .invalidOption("--encode-quality for jpg must be 1...100") }
        case .webp, .avif:
            guard (0...100).contains(encodeQuality) else { throw .invalidOption("--encode-quality for \(encodeFormat.rawValue) must be 0...100") }
        }
    }
}
