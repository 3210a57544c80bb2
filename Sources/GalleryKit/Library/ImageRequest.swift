/// What to load: a source (a URL or a local file) and the size wanted.
///
/// Two requests with the same source and size share one cache entry, and while one is in flight
/// the other waits for the same download and decode instead of starting its own.
public struct ImageRequest: Sendable, Hashable, CustomStringConvertible {
    /// Where the encoded image comes from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// An `http` or `https` URL, fetched through the pipeline's `TransferEngine`.
        case url(String)
        /// A local file path, read from disk (never copied into the originals store).
        case file(String)

        /// The URL or the path, as errors and events name it.
        public var description: String {
            switch self {
            case .url(let url): url
            case .file(let path): path
            }
        }
    }

    /// The size of the bitmap handed back. Every size is upright (EXIF orientation applied)
    /// and never larger than the source.
    public enum Size: Sendable, Hashable, CustomStringConvertible {
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
        var cacheSize: ImageCacheKey.DecodeSize {
            switch self {
            case .full: .full
            case .longestEdge(let edge): .longestEdge(edge)
            case .fit(let width, let height), .cover(let width, let height): .fit(width: width, height: height)
            }
        }

        /// Added to the cache key's options, so a cover and a fit of one box never share an entry.
        var cacheTag: String {
            if case .cover = self { return ",cover" }
            return ""
        }

        /// Whether every dimension is at least one pixel.
        var isValid: Bool {
            switch self {
            case .full: true
            case .longestEdge(let edge): edge > 0
            case .fit(let width, let height), .cover(let width, let height): width > 0 && height > 0
            }
        }
    }

    /// Where the image comes from.
    public var source: Source
    /// The size wanted.
    public var size: Size

    /// A request for `source` at `size` (full size by default).
    public init(source: Source, size: Size = .full) {
        self.source = source
        self.size = size
    }

    /// A request for the image at `url`.
    public init(url: String, size: Size = .full) {
        self.init(source: .url(url), size: size)
    }

    /// A request for the image file at `path`.
    public init(fileAt path: String, size: Size = .full) {
        self.init(source: .file(path), size: size)
    }

    /// `SOURCE @ SIZE`, for logs.
    public var description: String { "\(source) @ \(size)" }
}
