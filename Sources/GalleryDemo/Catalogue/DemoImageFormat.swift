/// How a derived demo image is encoded. The mix exists so clients meet every kind of file a real
/// photo site serves: mostly baseline JPEG, a good share of progressive JPEG, some PNG.
public enum DemoImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sequential (SOF0) JPEG with optimised Huffman tables.
    case baselineJPEG = "jpeg-baseline"
    /// Progressive (SOF2) JPEG, libjpeg's standard scan script.
    case progressiveJPEG = "jpeg-progressive"
    /// 8-bit RGB PNG; only photos of at most 4 MP get this format.
    case png

    /// The file extension used in image URLs and cache file names.
    public var fileExtension: String { self == .png ? "png" : "jpg" }

    /// The `Content-Type` the server sends.
    public var mediaType: String { self == .png ? "image/png" : "image/jpeg" }
}

/// The image sizes offered per photo, named by 500px's numeric size ids.
///
/// 500px clients ask for a list of sizes and pick the largest; the demo offers a small thumbnail,
/// a ~900 px preview and the full derived image as `2048` (on 500px that id meant "long edge
/// 2048"; here it is simply the full file, which is what a gallery builder wants).
public enum DemoImageSize: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Long edge at most 100 px.
    case thumbnail = 1
    /// Long edge at most 900 px.
    case medium = 4
    /// The full derived image (1 to 12 MP).
    case full = 2048

    /// The pixel size of this size for a photo whose full image is `width` x `height`: the full
    /// size itself, or scaled down to the size's long-edge limit. Never upscales.
    func scaledDimensions(width: Int, height: Int) -> (width: Int, height: Int) {
        let limit: Int
        switch self {
        case .thumbnail: limit = 100
        case .medium: limit = 900
        case .full: return (width, height)
        }
        let longEdge = max(width, height)
        guard longEdge > limit else { return (width, height) }
        let scale = Double(limit) / Double(longEdge)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
