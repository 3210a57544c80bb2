/// The seam the pipeline uses for its decoded-image cache, so a caller can supply another
/// policy (or a no-op) in place of ``ImageCache``.
public protocol ImageCaching: AnyObject, Sendable {
    /// The cached bitmap for `key`, or nil. Setting nil removes the entry.
    subscript(key: ImageCacheKey) -> Bitmap? { get set }
    /// Drops every entry.
    func removeAll()
}

extension ImageCaching where Self == ImageCache {
    /// The process-wide ``ImageCache/shared``, so `configuration.cache = .shared` reads as before.
    public static var shared: ImageCache { ImageCache.shared }
}
