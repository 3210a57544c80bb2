import Foundation

/// Pexels' API: curated photos (`GET /v1/curated?page=&per_page=`) or a search
/// (`GET /v1/search?query=&page=&per_page=`), the key in the `Authorization` header.
///
/// - The original is downloaded (`src.original`); ids are numbers and name the files as they are.
/// - Credit as Pexels asks: "Photo by NAME on Pexels", the name linked to `photographer_url`, Pexels to
///   its site; the photo's page is `url`.
/// - The listing ends when an answer has no `next_page`.
/// - Rate limits: 200 requests an hour and 20,000 a month by default; `X-Ratelimit-Remaining` and
///   `X-Ratelimit-Reset` (a UNIX time) come only on successful answers, never on the 429, so a spent
///   budget is seen before the 429 and obeyed by ``SourceClient``; a bare 429 is waited for (at most
///   `--rate-limit-wait`) and asked again.
public struct PexelsService: PhotoService {
    /// `https://api.pexels.com` by default (`--api` replaces it).
    public var base: URL
    /// Search words, or nil for the curated photos.
    public var query: String?
    /// The API key.
    public var key: String
    /// Photos per page (at most 80).
    public var perPage: Int

    /// The public API.
    public static let defaultBase = URL(string: "https://api.pexels.com")!

    /// Curated photos (`query` nil) or a search, with `key`.
    public init(query: String?, key: String, base: URL = PexelsService.defaultBase, perPage: Int = 80) {
        self.query = query
        self.key = key
        self.base = base
        self.perPage = max(1, min(perPage, 80))
    }

    /// `pexels`.
    public var name: String { "pexels" }
    /// The base URL and the listing.
    public var sourceDescription: String { base.absoluteString + (query.map { " query=" + $0 } ?? " curated") }

    /// Page `cursor` of the curated photos or the search.
    public func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .page(let number) = cursor else { throw .unusable(service: name, reason: "Pexels lists by page number") }
        let url = query.map { SourceQuery.url(base, path: "/v1/search", [("query", $0), ("page", String(number)), ("per_page", String(perPage))]) }
            ?? SourceQuery.url(base, path: "/v1/curated", [("page", String(number)), ("per_page", String(perPage))])
        let response: DataResponse
        do { response = try await client.get(url, service: name, headers: ["Authorization": key]) } catch {
            if case let .service(_, url, 401, message) = error {
                throw .unusable(service: name, reason: "the API key was refused (HTTP 401 for \(url): \(message)); check PEXELS_API_KEY (or --key)")
            }
            throw error
        }
        return try Self.batch(response.body, url: url, number: number, perPage: perPage)
    }

    /// Page `number` (of `perPage` photos) from the answer `body` to `url`.
    static func batch(_ body: [UInt8], url: String, number: Int, perPage: Int) throws(SourceError) -> SourceBatch {
        let object = try JSONFields.object(of: body, url: url)
        guard let items = JSONFields.array(object["photos"]) else { throw .missingList(page: URL(string: url) ?? URL(string: "about:blank")!, key: "photos") }
        let (photos, skipped) = SkippedItem.sort(items) { Self.photo($0) }
        let total = JSONFields.int(object["total_results"]).flatMap { $0 >= 0 ? $0 : nil }
        let more = JSONFields.text(object["next_page"]) != nil && !items.isEmpty
        return SourceBatch(page: PhotoPage(currentPage: number, totalPages: total.map { ($0 + perPage - 1) / perPage },
                                           totalItems: total, photos: photos, skipped: skipped),
                           next: more ? .page(number + 1) : nil)
    }

    typealias Reason = SkippedItem.Reason

    static func photo(_ value: Any) -> Result<Photo, Reason> {
        guard let item = value as? [String: Any] else { return .failure(Reason(text: "not an object")) }
        guard let id = JSONFields.string(item["id"]).flatMap({ $0.isEmpty ? nil : $0 }) else {
            return .failure(Reason(text: "missing field 'id'"))
        }
        let src = JSONFields.object(item["src"]) ?? [:]
        let width = JSONFields.int(item["width"])
        let height = JSONFields.int(item["height"])
        var images: [PhotoImage] = []
        if let original = JSONFields.text(src["original"]) { images.append(PhotoImage(size: max(width ?? 0, height ?? 0, 1), url: original)) }
        guard !images.isEmpty else { return .failure(Reason(text: "no src.original")) }
        let author = JSONFields.text(item["photographer"])
        let credit = PhotoCredit(
            author: author, authorURL: JSONFields.text(item["photographer_url"]),
            licence: "Pexels License", licenceURL: "https://www.pexels.com/license/",
            pageURL: JSONFields.text(item["url"]), service: "Pexels", serviceURL: "https://www.pexels.com/")
        let gallery = PhotoID.gallery(source: "pexels", id: id)
        return .success(Photo(
            id: gallery, name: JSONFields.text(item["alt"]) ?? "", user: author.map { PhotoUser(username: $0) },
            width: width, height: height, images: images, sourceID: String(gallery) == id ? nil : id, credit: credit))
    }
}
