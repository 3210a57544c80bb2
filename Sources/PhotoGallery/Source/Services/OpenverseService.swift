import Foundation

/// Openverse's image search (`GET /v1/images/?q=&page=&page_size=`), anonymous.
///
/// What its documentation and recorded answers say, and what this source does about it:
/// - anonymous clients get at most 20 results a page (`page_size` above 20 answers 401): `perPage` is
///   capped at 20; at most 20 pages deep: the listing ends at page 20 or `page_count`, whichever is first;
/// - sensitive results come only with `mature=true`, sent only with `--include-nsfw`; an item marked
///   `mature` is left out otherwise (``PhotoSelector``), whatever the server sent;
/// - `width`, `height` and `filetype` can be null: the size is then unknown and the file type comes
///   from the bytes;
/// - ids are UUIDs: the gallery id is a hash of `openverse:UUID` (``PhotoID``), the UUID kept as `source_id`;
/// - rate limits (`X-RateLimit-Available-anon_burst` / `_sustained`, 429 with
///   `{"detail":"... Expected available in N seconds."}` and no `Retry-After`) are the client's
///   (``SourceClient``, ``RateLimitState``).
public struct OpenverseService: PhotoService {
    /// `https://api.openverse.org` by default (`--api` replaces it).
    public var base: URL
    /// The search words.
    public var query: String
    /// Results per page, at most 20.
    public var perPage: Int
    /// Ask for sensitive results too (`mature=true`).
    public var includeMature: Bool

    /// The public API.
    public static let defaultBase = URL(string: "https://api.openverse.org")!
    /// The deepest page an anonymous client may ask for.
    public static let maxPage = 20

    /// A search for `query`.
    public init(query: String, base: URL = OpenverseService.defaultBase, perPage: Int = 20, includeMature: Bool = false) {
        self.query = query
        self.base = base
        self.perPage = max(1, min(perPage, 20))
        self.includeMature = includeMature
    }

    /// `openverse`.
    public var name: String { "openverse" }
    /// The base URL and the query.
    public var sourceDescription: String { base.absoluteString + " q=" + query }

    /// Page `cursor` of the search.
    public func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .page(let number) = cursor else {
            throw .unusable(service: name, reason: "an Openverse search is read by page number")
        }
        var items = [("q", query), ("page", String(number)), ("page_size", String(perPage))]
        if includeMature { items.append(("mature", "true")) }
        let url = SourceQuery.url(base, path: "/v1/images/", items)
        let response = try await client.get(url, service: name)
        return try Self.batch(response.body, url: url, number: number)
    }

    /// Page `number` of a search from the answer `body` to `url`.
    static func batch(_ body: [UInt8], url: String, number: Int) throws(SourceError) -> SourceBatch {
        let object = try JSONFields.object(of: body, url: url)
        guard let results = JSONFields.array(object["results"]) else {
            throw .missingList(page: URL(string: url) ?? URL(string: "about:blank")!, key: "results")
        }
        let (photos, skipped) = SkippedItem.sort(results) { Self.photo($0) }
        let pageCount = JSONFields.int(object["page_count"])
        let last = min(pageCount ?? Self.maxPage, Self.maxPage)
        let ended = results.isEmpty || number >= last
        let page = PhotoPage(currentPage: number, totalPages: min(last, Self.maxPage),
                             totalItems: JSONFields.int(object["result_count"]), photos: photos, skipped: skipped)
        return SourceBatch(page: page, next: ended ? nil : .page(number + 1))
    }

    typealias Reason = SkippedItem.Reason

    static func photo(_ value: Any) -> Result<Photo, Reason> {
        guard let item = value as? [String: Any] else { return .failure(Reason(text: "not an object")) }
        guard let id = JSONFields.text(item["id"]) else { return .failure(Reason(text: "missing field 'id'")) }
        guard let url = JSONFields.text(item["url"]) else { return .failure(Reason(text: "missing field 'url'")) }
        let width = JSONFields.int(item["width"])
        let height = JSONFields.int(item["height"])
        let edge = max(width ?? 0, height ?? 0)
        let credit = PhotoCredit(
            author: JSONFields.text(item["creator"]), authorURL: JSONFields.text(item["creator_url"]),
            licence: licenceName(JSONFields.text(item["license"]), version: JSONFields.text(item["license_version"])),
            licenceURL: JSONFields.text(item["license_url"]), pageURL: JSONFields.text(item["foreign_landing_url"]),
            service: "Openverse", serviceURL: "https://openverse.org/")
        return .success(Photo(
            id: PhotoID.gallery(source: "openverse", id: id), name: JSONFields.text(item["title"]) ?? "",
            nsfw: JSONFields.bool(item["mature"]) ?? false,
            user: credit.author.map { PhotoUser(username: $0) }, width: width, height: height,
            images: [PhotoImage(size: edge > 0 ? edge : 1, url: url)], sourceID: id, credit: credit))
    }

    /// `by-sa` + `4.0` → "CC BY-SA 4.0"; `cc0` → "CC0 1.0"; `pdm` → "Public Domain Mark 1.0".
    static func licenceName(_ code: String?, version: String?) -> String? {
        guard let code = code?.lowercased() else { return nil }
        let suffix = version.map { " " + $0 } ?? ""
        switch code {
        case "cc0": return "CC0" + suffix
        case "pdm": return "Public Domain Mark" + suffix
        default: return "CC " + code.uppercased() + suffix
        }
    }
}
