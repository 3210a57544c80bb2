import Foundation
import GallerySync

/// Download, decode and scale images, with a decoded-image cache and one download and one decode
/// per source and size however many callers ask at once.
///
/// ```swift
/// let thumbnail = try await ImagePipeline.shared.image(url: "https://example.com/a.jpg",
///                                                      size: .longestEdge(256))
/// let jpeg = try ImageEncoder.encodeJPEG(thumbnail, quality: 85)
/// ```
///
/// A request goes through these stages, each skipped when it can be:
/// 1. the cache, keyed by source, validator (ETag / Last-Modified, or a file's mtime and size)
///    and size: a hit costs a lock and a dictionary lookup;
/// 2. the in-flight table: a request for a source and size already being loaded waits for that
///    work instead of starting its own;
/// 3. the original: a local file, the on-disk originals store, or a download through
///    ``engine`` (itself shared by all sizes of one URL);
/// 4. decode (reduced in the codec where the size allows), scale and apply the EXIF orientation
///    on the pipeline's worker threads, then store in the cache.
///
/// Cancelling the calling task ends the call at once with a cancellation error; when no other
/// caller waits for the same work, the download is aborted and the decode skipped.
/// A cached URL is not revalidated with the server: its validator is the one seen on download.
public final class ImagePipeline: Sendable {
    /// The process-wide pipeline: default configuration, sharing `ImageCache.shared`.
    public static let shared: ImagePipeline = {
        var configuration = Configuration()
        configuration.cache = ImageCache.shared
        return ImagePipeline(configuration: configuration)
    }()

    /// The configuration the pipeline was made with.
    public let configuration: Configuration
    /// The transfer engine that fetches originals; usable directly for other requests.
    public let engine: TransferEngine
    /// The decoded-image cache.
    public let cache: any ImageCaching

    let pool: WorkerPool
    let store: OriginalStore?
    let router = ProgressRouter()
    let images = TaskCoalescer<ImageRequest, Bitmap, ImagePipelineError>()
    let originals = TaskCoalescer<String, Original, ImagePipelineError>()
    /// The validator each URL was last downloaded with, so a later request can build its cache
    /// key without asking the server. Bounded (LRU) so a crawler's memory does not grow forever.
    let validators = Cache<String, KnownValidator>(costLimit: 1 << 40, countLimit: 100_000, entryCostFraction: 1)
    /// What each source was when last loaded (format, size, dimensions, validator), bounded like ``validators``.
    let sources = Cache<String, ImageSourceInfo>(costLimit: 1 << 40, countLimit: 100_000, entryCostFraction: 1)
    let pipelineObservers: [any ImagePipelineObserver]
    let counters = Locked(Statistics())

    /// Creates an independent pipeline: its own engine, worker threads and (unless the
    /// configuration names one) cache.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var transfer = configuration.transfer
        transfer.observers += configuration.observers
        engine = TransferEngine(configuration: transfer)
        cache = configuration.cache
            ?? ImageCache(costLimit: configuration.cacheCostLimit, countLimit: configuration.cacheCountLimit)
        pool = WorkerPool(threads: configuration.workers)
        store = configuration.originalsFolder.map { OriginalStore(folder: $0) }
        pipelineObservers = configuration.observers.compactMap { $0 as? any ImagePipelineObserver }
    }

    deinit {
        pool.shutdown()
        engine.shutdown()
    }

    /// The image of `request`, upright, at the requested size.
    ///
    /// - Parameters:
    ///   - request: the source and the size wanted.
    ///   - progress: called as the original arrives and when decoding starts; shared work
    ///     reports to every request waiting on it. Called from other threads: keep it quick.
    /// - Throws: ``ImagePipelineError`` naming the source and stage; ``ImagePipelineError/isCancellation``
    ///   is true when the calling task was cancelled.
    public func image(for request: ImageRequest,
                      progress: (@Sendable (ImageProgress) -> Void)? = nil) async throws(ImagePipelineError) -> Bitmap {
        guard request.size.isValid else {
            throw fail(request, ImagePipelineError(source: request.source, stage: .request,
                                                   reason: .invalidRequest("size \(request.size) is below one pixel")))
        }
        if let hit = cachedImage(for: request) {
            counters.withLock { $0.cacheHits += 1 }
            emit(.cacheHit(request))
            return hit
        }
        let token = progress.map { router.add($0, for: request.source) }
        defer { if let token { router.remove(token, source: request.source) } }
        let source = request.source
        let outcome = await images.value(
            for: request,
            cancelled: { .cancelled(source, stage: source.isFile ? .decode : .transfer) },
            joined: { joined in
                counters.withLock { joined ? ($0.coalesced += 1) : ($0.started += 1) }
                if joined { emit(.coalesced(request)) }
            },
            work: { [self] in await load(request) })
        switch outcome {
        case .success(let bitmap): return bitmap
        case .failure(let error): throw fail(request, error)
        }
    }

    /// The image at `url`, at `size` (full size by default). See ``image(for:progress:)``.
    public func image(url: String, size: ImageRequest.Size = .full,
                      progress: (@Sendable (ImageProgress) -> Void)? = nil) async throws(ImagePipelineError) -> Bitmap {
        try await image(for: ImageRequest(url: url, size: size), progress: progress)
    }

    /// The image in the file at `path`, at `size` (full size by default). See ``image(for:progress:)``.
    public func image(fileAt path: String, size: ImageRequest.Size = .full,
                      progress: (@Sendable (ImageProgress) -> Void)? = nil) async throws(ImagePipelineError) -> Bitmap {
        try await image(for: ImageRequest(fileAt: path, size: size), progress: progress)
    }

    /// The cached bitmap for `request`, or nil; never downloads or decodes. A file source is
    /// looked up with its current modification time and size, so an edited file misses.
    public func cachedImage(for request: ImageRequest) -> Bitmap? {
        guard let validator = currentValidator(of: request.source) else { return nil }
        return cache[cacheKey(request, validator: validator)]
    }

    /// Drops every decoded bitmap of the cache (the originals store is kept).
    public func removeAllCachedImages() {
        cache.removeAll()
    }

    /// What the pipeline has done so far.
    public var statistics: Statistics { counters.withLock { $0 } }

    /// Stops the worker threads and the transfer engine; requests after this fail. Dropping the
    /// last reference does the same.
    public func shutdown() {
        pool.shutdown()
        engine.shutdown()
    }

    // MARK: - Helpers shared by the stages

    func emit(_ event: ImagePipelineEvent) {
        for observer in pipelineObservers { observer.pipeline(event) }
    }

    private func fail(_ request: ImageRequest, _ error: ImagePipelineError) -> ImagePipelineError {
        counters.withLock { $0.failures += 1 }
        emit(.failed(request, error))
        return error
    }

    func cacheKey(_ request: ImageRequest, validator: ImageCacheKey.Validator?) -> ImageCacheKey {
        ImageCacheKey(source: request.source.cacheSource, validator: validator, size: request.size.cacheSize,
                      options: (configuration.convertsToSRGB ? "upright" : "upright,source-colour") + request.size.cacheTag)
    }

    /// The validator to look the cache up with: a file's current stat, or the validator a URL was
    /// last downloaded with. `.none` means "not known": no lookup can hit.
    private func currentValidator(of source: ImageRequest.Source) -> ImageCacheKey.Validator?? {
        switch source {
        case .file(let path): FileValidator.of(path).map { .some($0) }
        case .url(let url): validators.value(forKey: url).map { $0.validator }
        }
    }
}

/// A URL's validator as last seen, nil when the server sent none (still a known answer).
struct KnownValidator: Sendable {
    var validator: ImageCacheKey.Validator?
}

extension ImageRequest.Source {
    var isFile: Bool {
        if case .file = self { return true }
        return false
    }

    /// Files and URLs never share a cache entry, even for a path that looks like a URL.
    var cacheSource: String {
        switch self {
        case .url(let url): url
        case .file(let path): "file:" + path
        }
    }
}
