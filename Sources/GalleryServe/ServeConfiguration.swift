import Foundation
import GalleryKit

/// Everything `fetch-gallery serve` (or a program embedding ``ImageService``) is configured with.
public struct ServeConfiguration: Sendable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// Port; 0 picks a free one.
    public var port = 8080
    /// Decode and encode threads (the pipeline's workers); default one per core.
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Parses and verifies URLs (keys, presets, presets-only mode).
    public var parser = ImageURLParser()
    /// The folder `local:///PATH` sources are read from; nil refuses `local://`.
    public var root: String?
    /// Hosts http(s) sources may name (`example.com`, or `.example.com` for it and its subdomains);
    /// empty allows every host.
    public var allowedHosts: [String] = []
    /// Lets sources reach loopback, private and link-local addresses (off: public addresses only,
    /// checked on every connection after DNS and after every redirect).
    public var allowPrivateAddresses = false
    /// The largest source accepted, in bytes (downloads are cut off there; files are checked first).
    public var maxSourceBytes: Int64 = 50 << 20
    /// The most pixels a source may have (width x height, read from the header before decoding).
    public var maxSourcePixels = 50_000_000
    /// The most seconds one download may take.
    public var downloadTimeout: Double = 10
    /// How long a result is served without asking the source again, in seconds (also `Cache-Control: max-age`).
    public var ttl = 3600
    /// The folder of the on-disk result cache; nil keeps results in memory only.
    public var cacheDirectory: String?
    /// The most bytes the on-disk result cache holds (least recently used results go first).
    public var cacheBytes: Int64 = 1 << 30
    /// The most bytes of decoded bitmaps the pipeline keeps (its decoded-image cache). The result cache
    /// holds the encoded answers, so this mainly serves other sizes of a recent source.
    public var decodedCacheBytes = 64 << 20
    /// Negotiate WebP from `Accept` when the URL names no format (imgproxy's IMGPROXY_AUTO_WEBP).
    public var autoWebP = false
    /// Negotiate AVIF from `Accept` when the URL names no format (imgproxy's IMGPROXY_AUTO_AVIF); preferred over WebP.
    public var autoAVIF = false
    /// Encoder quality when the URL gives none (imgproxy's default, 80).
    public var defaultQuality = 80
    /// The most megapixels being decoded at once (a budget, not a count: one 40 MP photo waits for
    /// room while small ones pass).
    public var decodeBudgetMegapixels = 100
    /// Writes one access-log line per request (JSON) to standard error.
    public var accessLog = true
    /// A PEM file of CA certificates trusted for https sources instead of the system's.
    public var caCertificates: String?

    public init() {}
}
