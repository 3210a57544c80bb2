import Foundation

/// What a pipeline saw of a source when it last loaded it: enough for a service to answer
/// imgproxy's `/info`, keep the source's format, and build an `ETag` from the source's version.
public struct ImageSourceInfo: Sendable, Hashable {
    /// The encoded format, from the bytes' signature (nil when unrecognised).
    public var format: ImageFormat?
    /// The encoded size in bytes.
    public var byteCount: Int
    /// The upright width in pixels (EXIF orientation applied).
    public var width: Int
    /// The upright height in pixels.
    public var height: Int
    /// The source's version: an HTTP ETag or Last-Modified, or a file's modification time and size.
    public var validator: ImageCacheKey.Validator?
    /// When the original was read or downloaded.
    public var loaded: Date

    /// Creates a description (the pipeline makes these; public for tests and other stores).
    public init(format: ImageFormat?, byteCount: Int, width: Int, height: Int,
                validator: ImageCacheKey.Validator?, loaded: Date) {
        self.format = format
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.validator = validator
        self.loaded = loaded
    }
}

extension ImagePipeline {
    /// The image of `request` (see ``image(for:progress:)``) and what the pipeline knows of its source.
    /// The description is nil only when the source's entry was evicted while its bitmap stayed cached.
    public func imageAndSource(for request: ImageRequest) async throws(ImagePipelineError) -> (Bitmap, ImageSourceInfo?) {
        let bitmap = try await image(for: request)
        return (bitmap, sourceInfo(for: request.source))
    }

    /// The image of `request` made from bytes the caller already holds for its source, such as the
    /// body of its own conditional GET that the origin answered with 200: decoded, scaled and
    /// remembered as the source's current version, exactly as if the pipeline had downloaded them.
    /// A `.url` source's next ``image(for:progress:)`` is then served from the cache.
    public func imageAndSource(for request: ImageRequest, original bytes: [UInt8],
                               validator: ImageCacheKey.Validator?) async throws(ImagePipelineError) -> (Bitmap, ImageSourceInfo) {
        try await adopt(Original(bytes: bytes, validator: validator), for: request)
    }

    /// What the pipeline saw of `source` when it last loaded it, or nil.
    public func sourceInfo(for source: ImageRequest.Source) -> ImageSourceInfo? {
        sources.value(forKey: source.cacheSource)
    }

    /// Forgets the version `url` was last downloaded at, so the next request downloads it again
    /// instead of answering from the cache (a service calls this when its freshness lifetime ran out).
    public func forget(url: String) {
        _ = validators.removeValue(forKey: url)
        _ = sources.removeValue(forKey: ImageRequest.Source.url(url).cacheSource)
    }
}

extension ImagePipeline {
    /// Runs `work` on the pipeline's worker threads (as its decodes do), so a caller's own long C call
    /// (an encode, a crop) does not occupy one of Swift's cooperative threads. Throws
    /// `CancellationError` when the calling task is cancelled before a thread takes it.
    public func onWorkers<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.run(work)
    }
}
