import Foundation

/// A 500px-style API (`GET /photos?feature=popular&page=N&rpp=50[&consumer_key=K]`): the API this tool
/// was first written for, still served by self-hosted copies and by the built-in demo catalogue.
///
/// Pages are numbered; the listing ends at `total_pages` or at an empty page. A page whose body is not
/// a usable page (a proxy's error page, a half-deployed API) is asked for again up to `pageAttempts`
/// times. The consumer key travels in the query, so it is redacted from every message.
public struct FiveHundredPxService: PhotoService {
    /// The API's base URL (may carry a path prefix such as `/v1`).
    public var base: URL
    /// Sent as `consumer_key` when given.
    public var consumerKey: String?
    /// Photos per page (`rpp`).
    public var perPage: Int
    /// How often a page that does not parse is asked for.
    public var pageAttempts: Int

    /// The API at `base`.
    public init(base: URL, consumerKey: String? = nil, perPage: Int = 50, pageAttempts: Int = 3) {
        self.base = base
        self.consumerKey = consumerKey
        self.perPage = perPage
        self.pageAttempts = pageAttempts
    }

    /// `500px`.
    public var name: String { "500px" }
    /// The base URL, as earlier versions recorded it.
    public var sourceDescription: String { base.absoluteString }

    /// The page at `cursor` (a `.page`); the next one unless this was the last or empty.
    public func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .page(let number) = cursor else {
            throw .unusable(service: name, reason: "a 500px listing is read by page number, not by continuation")
        }
        let endpoint = PhotoEndpoint.popular(page: number, perPage: perPage, consumerKey: consumerKey)
        let url = endpoint.url(relativeTo: base)
        var last: SourceError?
        for attempt in 1...max(1, pageAttempts) {
            let response = try await client.get(url.absoluteString, service: name)
            do {
                let page = try PhotoPage.decode(Data(response.body), from: url)
                let ended = page.photos.isEmpty && page.skipped.isEmpty
                let next: SourceCursor? = ended || (page.totalPages.map { number >= $0 } ?? false) ? nil : .page(number + 1)
                return SourceBatch(page: page, next: next)
            } catch {
                last = Self.redacted(error, client.redactor)
            }
            if attempt < pageAttempts { try? await Task.sleep(for: .milliseconds(250 << attempt)) }
        }
        throw last!
    }

    /// `error` with the key taken out of the page URL it names.
    static func redacted(_ error: SourceError, _ redactor: Redactor) -> SourceError {
        func clean(_ url: URL) -> URL { URL(string: redactor.redact(url.absoluteString)) ?? url }
        switch error {
        case let .notJSON(page, reason): return .notJSON(page: clean(page), reason: reason)
        case let .missingList(page, key): return .missingList(page: clean(page), key: key)
        case let .malformedPage(page, reason): return .malformedPage(page: clean(page), reason: reason)
        default: return error
        }
    }
}
