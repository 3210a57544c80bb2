/// Everything that can go wrong in the demo catalogue server, with the photo, file or address
/// involved.
public enum DemoError: Error, Sendable, CustomStringConvertible {
    /// No source photographs were found where they were looked for.
    case noSourcePhotos(directory: String)
    /// A source photograph could not be read or decoded.
    case unreadableSource(path: String, reason: String)
    /// Deriving one image failed (decode, scale or encode).
    case renderFailed(photoID: Int, size: Int, reason: String)
    /// The on-disk cache could not be created or written.
    case cacheWriteFailed(path: String, reason: String)
    /// The HTTP server could not start (port in use, no permission, ...).
    case serverStartFailed(host: String, port: Int, reason: String)

    public var description: String {
        switch self {
        case let .noSourcePhotos(directory):
            "demo catalogue: no source photos (.jpg/.png) in \(directory)"
        case let .unreadableSource(path, reason):
            "demo catalogue: cannot use source photo \(path): \(reason)"
        case let .renderFailed(photoID, size, reason):
            "demo catalogue: cannot derive image \(photoID) size \(size): \(reason)"
        case let .cacheWriteFailed(path, reason):
            "demo catalogue: cannot write cache file \(path): \(reason)"
        case let .serverStartFailed(host, port, reason):
            "demo server: cannot listen on \(host):\(port): \(reason)"
        }
    }
}
