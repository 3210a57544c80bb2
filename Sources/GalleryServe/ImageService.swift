import Foundation
import GalleryKit

/// The thumbnail service without HTTP: an imgproxy URL path (and the client's Accept and
/// If-None-Match) in, an encoded image and its headers out, through one shared ``ImagePipeline``,
/// a result cache and coalescing of identical requests. ``ServeServer`` puts it behind an HTTP server;
/// a server framework (Hummingbird, Vapor) can call ``image(path:accept:ifNoneMatch:)`` the same way.
public final class ImageService: Sendable {
    /// An answer to send.
    public struct Answer: Sendable {
        /// 200, or 304 when the client's If-None-Match matched.
        public var status: Int
        public var contentType: String
        /// Empty for a 304.
        public var body: [UInt8]
        /// The quoted entity tag.
        public var etag: String
        /// Whether the format was negotiated from Accept (send `Vary: Accept`).
        public var variesByAccept: Bool
        /// `hit`, `revalidated` or `miss`, for the access log and metrics.
        public var cacheStatus: String
    }

    public let configuration: ServeConfiguration
    public let pipeline: ImagePipeline
    public let metrics = ServeMetrics()
    let resolver: SourceResolver
    let results: ResultCache
    let inFlight = InFlight<Answer>()
    let budget: MegapixelBudget

    /// A service with its own pipeline built from `configuration`; throws when the cache folder is unusable.
    public init(configuration: ServeConfiguration) throws(ServeError) {
        self.configuration = configuration
        var pipelineConfiguration = ImagePipeline.Configuration()
        pipelineConfiguration.workers = configuration.workers
        pipelineConfiguration.maxPixels = configuration.maxSourcePixels
        pipelineConfiguration.cacheCostLimit = configuration.decodedCacheBytes
        pipelineConfiguration.transfer.maxBodyBytes = configuration.maxSourceBytes
        pipelineConfiguration.transfer.deadline = configuration.downloadTimeout
        pipelineConfiguration.transfer.connectTimeout = min(configuration.downloadTimeout, 10)
        pipelineConfiguration.transfer.retry.maxAttempts = 1
        pipelineConfiguration.transfer.caCertificatesPath = configuration.caCertificates
        pipelineConfiguration.addressPolicy = configuration.allowPrivateAddresses ? .unrestricted : AddressPolicy(
            .atMostAsPrivateAs(.publicInternet),
            explanation: "this service fetches public addresses only; --allow-private-addresses lifts this")
        pipeline = ImagePipeline(configuration: pipelineConfiguration)
        resolver = SourceResolver(root: configuration.root, allowedHosts: configuration.allowedHosts,
                                  maxSourceBytes: configuration.maxSourceBytes)
        results = try ResultCache(folder: configuration.cacheDirectory, limit: configuration.cacheBytes)
        budget = MegapixelBudget(megapixels: configuration.decodeBudgetMegapixels)
    }

    /// Answers an imgproxy processing URL's path.
    public func image(path: String, accept: String? = nil, ifNoneMatch: String? = nil) async throws(ServeError) -> Answer {
        let url = try configuration.parser.parse(path)
        let source = try resolver.resolve(url.source)
        let (format, negotiated) = wantedFormat(url.options, accept: accept)
        let quality = url.options.quality ?? configuration.defaultQuality
        let key = "\(source.cacheKeyPart)|\(url.options.normalized)|\(format?.rawValue ?? "source")|q\(quality)"
        var refetched: Refetched?
        if let stored = await results.read(key) {
            switch await freshen(stored, key: key, source: source) {
            case .fresh(let fresh):
                metrics.cache(hit: true)
                let status = fresh.header.checked == stored.header.checked ? "hit" : "revalidated"
                return Self.conditional(Answer(status: 200, contentType: fresh.header.contentType, body: fresh.body,
                                               etag: fresh.header.etag, variesByAccept: negotiated, cacheStatus: status),
                                        ifNoneMatch: ifNoneMatch)
            case .stale(let bytes):
                refetched = bytes
            }
        }
        metrics.cache(hit: false)
        let body = refetched
        let result: Result<Answer, ServeError> = await inFlight.run(key) { [self] () async throws(ServeError) -> Answer in
            try await render(url.options, source: source, format: format, quality: quality, key: key, negotiated: negotiated,
                             refetched: body)
        }
        return Self.conditional(try result.get(), ifNoneMatch: ifNoneMatch)
    }

    /// `answer`, or a 304 without a body when the client's If-None-Match holds its tag.
    static func conditional(_ answer: Answer, ifNoneMatch: String?) -> Answer {
        guard let ifNoneMatch, matches(ifNoneMatch, answer.etag) else { return answer }
        var notModified = answer
        notModified.status = 304
        notModified.body = []
        return notModified
    }

    /// The explicit format, else AVIF or WebP when enabled and accepted, else nil (the source's).
    func wantedFormat(_ options: ProcessingOptions, accept: String?) -> (ProcessingOptions.OutputFormat?, Bool) {
        if let format = options.format { return (format, false) }
        guard configuration.autoAVIF || configuration.autoWebP else { return (nil, false) }
        let accepted = (accept ?? "").lowercased()
        if configuration.autoAVIF, accepted.contains("image/avif") { return (.avif, true) }
        if configuration.autoWebP, accepted.contains("image/webp") { return (.webp, true) }
        return (nil, true)
    }

    /// If-None-Match holds `etag` (or `*`), weak tags compared by value.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

extension ImageRequest.Source {
    /// Files and URLs never share a result.
    var cacheKeyPart: String {
        switch self {
        case .url(let url): "url:" + url
        case .file(let path): "file:" + path
        }
    }
}
