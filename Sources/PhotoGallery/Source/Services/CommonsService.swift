import Foundation

/// Wikimedia Commons through the MediaWiki Action API: the files of one category, batch by batch.
///
/// `action=query&generator=categorymembers&gcmtitle=Category:NAME&gcmtype=file` with
/// `prop=imageinfo&iiprop=url|size|mime|sha1|extmetadata`, `formatversion=2`, and `maxlag=5`.
/// - The listing follows `continue` objects, never page numbers: every key of `continue` is sent back.
///   A `continue` carrying `iicontinue` continues the *same* batch's properties: the next answer repeats
///   the batch's pages (some without `imageinfo`), and only an answer with `batchcomplete` ends the
///   batch. Pages are merged by `pageid` across those answers; a batch (one of `--pages`) is however
///   many answers it took.
/// - `extmetadata` is HTML (and sometimes numbers): author, licence and description are reduced to text
///   by ``HTMLText``, keeping the author's link.
/// - A `maxlag` error (status 200, `Retry-After`) is waited out and asked again; no key is needed.
/// - Files that are not raster images (SVG, TIFF, PDF, video) are listed as skipped items.
public struct CommonsService: PhotoService {
    /// The API endpoint, `https://commons.wikimedia.org/w/api.php` by default (`--api` replaces it).
    public var endpoint: URL
    /// The category, with or without the `Category:` prefix.
    public var category: String
    /// Files per batch (`gcmlimit`).
    public var perBatch: Int
    /// The `maxlag` sent (seconds), as Wikimedia asks of non-interactive clients.
    public var maxlag = 5

    /// The public endpoint.
    public static let defaultEndpoint = URL(string: "https://commons.wikimedia.org/w/api.php")!

    /// The files of `category`, `perBatch` at a time.
    public init(category: String, endpoint: URL = CommonsService.defaultEndpoint, perBatch: Int = 50) {
        self.category = category
        self.endpoint = endpoint
        self.perBatch = max(1, min(perBatch, 500))
    }

    /// `commons`.
    public var name: String { "commons" }
    /// The endpoint and category.
    public var sourceDescription: String { endpoint.absoluteString + " " + categoryTitle }
    /// The listing's start (no continuation yet).
    public var firstCursor: SourceCursor { .continuation([:]) }

    var categoryTitle: String {
        let trimmed = category.trimmingCharacters(in: .whitespaces)
        return trimmed.lowercased().hasPrefix("category:") ? trimmed : "Category:" + trimmed
    }

    /// One whole batch: answers are asked for until one carries `batchcomplete`.
    public func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .continuation(var continuation) = cursor else {
            throw .unusable(service: name, reason: "a MediaWiki listing is read by continuation, not by page number")
        }
        var merged = CommonsBatchMerger()
        for _ in 0..<Self.maxAnswersPerBatch {
            let answer = try await query(continuation, client: client)
            merged.add(answer.pages)
            if answer.batchComplete {
                return SourceBatch(page: merged.page(), next: answer.next.map { .continuation($0) })
            }
            guard let next = answer.next else {
                // No batchcomplete and nothing to continue with: take what came as the batch.
                return SourceBatch(page: merged.page(), next: nil)
            }
            continuation = next
        }
        throw .malformedPage(page: endpoint, reason: "a batch did not complete after \(Self.maxAnswersPerBatch) continuations")
    }

    /// A batch needing more answers than this is a server bug, not a listing.
    static let maxAnswersPerBatch = 100

    struct Answer {
        var pages: [[String: Any]]
        var batchComplete: Bool
        var next: [String: String]?
    }

    private func query(_ continuation: [String: String], client: SourceClient) async throws(SourceError) -> Answer {
        var items: [(String, String)] = [
            ("action", "query"), ("format", "json"), ("formatversion", "2"),
            ("generator", "categorymembers"), ("gcmtitle", categoryTitle), ("gcmtype", "file"),
            ("gcmlimit", String(perBatch)), ("prop", "imageinfo"), ("iiprop", "url|size|mime|sha1|extmetadata"),
            ("iiextmetadatafilter", "Artist|LicenseShortName|LicenseUrl|ImageDescription|ObjectName|UsageTerms"),
            ("maxlag", String(maxlag)),
        ]
        for key in continuation.keys.sorted() { items.append((key, continuation[key]!)) }
        let url = SourceQuery.url(endpoint, path: "", items)
        var lagged = 0
        while true {
            let response = try await client.get(url, service: name)
            let object = try JSONFields.object(of: response.body, url: url)
            if let error = JSONFields.object(object["error"]) {
                let code = JSONFields.string(error["code"]) ?? "unknown"
                let info = JSONFields.string(error["info"]) ?? ""
                if code == "maxlag", lagged < 5 {
                    lagged += 1
                    let wait = response.headers["Retry-After"].flatMap { RetryPolicy.parseRetryAfter($0) } ?? 5
                    try await client.pause(max(wait, 1), service: name, why: "maxlag: \(info)")
                    continue
                }
                throw .service(service: name, url: url, status: response.status, message: "\(code): \(info)")
            }
            return Self.answer(object)
        }
    }

    /// One answer without an `error`: its pages, whether it completes the batch, and what continues it.
    static func answer(_ object: [String: Any]) -> Answer {
        let pages = JSONFields.array(JSONFields.object(object["query"])?["pages"])?.compactMap { $0 as? [String: Any] } ?? []
        let complete = object["batchcomplete"].map { JSONFields.bool($0) ?? true } ?? false
        var next: [String: String]?
        if let cont = JSONFields.object(object["continue"]) {
            next = cont.reduce(into: [:]) { out, pair in if let value = JSONFields.string(pair.value) { out[pair.key] = value } }
        }
        if !complete, next == nil, pages.isEmpty, object["query"] == nil {
            // An empty category answers with neither: the listing is simply over.
            return Answer(pages: [], batchComplete: true, next: nil)
        }
        return Answer(pages: pages, batchComplete: complete, next: next)
    }
}
