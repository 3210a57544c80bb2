/// Identifies one decoded image in an ``ImageCache``: which source, which version of it, and
/// which decode, so an original and its thumbnails (or two versions of a file) never collide.
public struct ImageCacheKey: Hashable, Sendable {
    /// What proves the cached pixels still match the source.
    public enum Validator: Hashable, Sendable {
        /// An HTTP entity tag, exactly as the server sent it (quotes and `W/` included).
        case etag(String)
        /// An HTTP `Last-Modified` value, as sent.
        case lastModified(String)
        /// A local file's modification time (seconds since 1970) and size in bytes.
        case file(modified: Double, size: Int64)
    }

    /// How the image was decoded.
    public enum DecodeSize: Hashable, Sendable {
        /// The full-resolution image.
        case full
        /// Scaled so the longest edge is at most this many pixels.
        case longestEdge(Int)
        /// Scaled to fit inside a box of this many pixels, aspect ratio kept, never upscaled.
        case fit(width: Int, height: Int)
    }

    /// The source: a URL string or a content hash.
    public var source: String
    /// The source's version, if known; nil matches only entries stored without one.
    public var validator: Validator?
    /// The decode size.
    public var size: DecodeSize
    /// Any other decode parameters that change the pixels (orientation applied, filter, format...),
    /// as a short tag chosen by the caller; empty by default.
    public var options: String

    /// Creates a key.
    public init(source: String, validator: Validator? = nil, size: DecodeSize = .full, options: String = "") {
        self.source = source
        self.validator = validator
        self.size = size
        self.options = options
    }
}
