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

    /// The size of the bitmap handed back (see ``BitmapSize``).
    public typealias Size = BitmapSize

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
