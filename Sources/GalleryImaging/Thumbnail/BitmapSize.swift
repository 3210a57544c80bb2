/// The size of a bitmap asked for (``DecodePlan``; the library's `ImageRequest.Size`, a gallery's renditions).
/// Every size is upright (EXIF orientation applied) and never larger than the source.
public enum BitmapSize: Sendable, Hashable, CustomStringConvertible {
    /// Every pixel of the source.
    case full
    /// Scaled so the longest edge is this many pixels (a thumbnail).
    case longestEdge(Int)
    /// Scaled to fit inside `width` x `height`, aspect ratio kept.
    case fit(width: Int, height: Int)
    /// Scaled so it covers `width` x `height` (the smaller scale that leaves neither side short),
    /// aspect ratio kept, never upscaled; the caller crops what overhangs (imgproxy's `fill`).
    case cover(width: Int, height: Int)

    /// `full`, `256`, `320x200` or `cover 320x200`.
    public var description: String {
        switch self {
        case .full: "full"
        case .longestEdge(let edge): "\(edge)"
        case .fit(let width, let height): "\(width)x\(height)"
        case .cover(let width, let height): "cover \(width)x\(height)"
        }
    }

    /// The size as the decoded-image cache keys it (a cover box is told apart by ``cacheTag``).
    package var cacheSize: ImageCacheKey.DecodeSize {
        switch self {
        case .full: .full
        case .longestEdge(let edge): .longestEdge(edge)
        case .fit(let width, let height), .cover(let width, let height): .fit(width: width, height: height)
        }
    }

    /// Added to the cache key's options, so a cover and a fit of one box never share an entry.
    package var cacheTag: String {
        if case .cover = self { return ",cover" }
        return ""
    }

    /// Whether every dimension is at least one pixel.
    package var isValid: Bool {
        switch self {
        case .full: true
        case .longestEdge(let edge): edge > 0
        case .fit(let width, let height), .cover(let width, let height): width > 0 && height > 0
        }
    }
}
