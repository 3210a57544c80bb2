import Foundation

/// How to run a ``DemoServer``. The defaults serve 20 pages (1,000 photos) from the bundled
/// source photos on a free port, caching under `~/.cache/fetch-gallery`.
public struct DemoServerConfiguration: Sendable {
    /// Always loopback: the demo is for local tools and tests, never for the network.
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 0
    /// Pages of 50 photos to offer.
    public var pageCount = 20
    /// Serve a synthetic catalogue of this many small photos instead (scale tests; see
    /// ``DemoCatalogue/init(syntheticPhotos:sourceCount:)``); `pageCount` is then ignored.
    public var syntheticPhotos: Int?
    /// The source photographs; `nil` means ``DemoSourcePhotos/bundled()``.
    public var sources: DemoSourcePhotos?
    /// Root of the derived-image cache (a version-stamped folder is made inside).
    public var cacheRoot = DemoCacheLocation.defaultRoot
    /// Images rendered at once; each may hold ~100 MB while it is being made.
    public var concurrentRenders = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Replaces the codec-based renderer (benchmarks measuring the server alone).
    public var renderer: (any DemoImageRendering)?

    public init() {}
}
