import Foundation

/// Unsplash's API: the editorial feed (`GET /photos?page=&per_page=`, a bare JSON array) or a search
/// (`GET /search/photos?query=&page=&per_page=`, `{total, total_pages, results}`), with the access key
/// sent as `Authorization: Client-ID KEY`.
///
/// The API guidelines this source follows:
/// - each downloaded photo's `links.download_location` is called once, when it is downloaded
///   (``didDownload(_:client:)``), with the same key;
/// - the photo is credited to its photographer and to Unsplash, both linked with
///   `utm_source=fetch-gallery&utm_medium=referral`;
/// - the image is taken from `urls.full` (the largest JPEG, the photo's full size);
/// - demo keys get 50 requests an hour: `X-Ratelimit-Remaining` is obeyed by ``SourceClient`` (a spent
///   hourly budget stops the source; a 403 "Rate Limit Exceeded" is waited for like a 429).
/// `links.html` uses the photo's slug and only `download_location` the bare id; ids are kept as
/// `source_id` and hashed into the gallery id (``PhotoID``).
public struct UnsplashService: PhotoService {
    /// `https://api.unsplash.com` by default (`--api` replaces it).
    public var base: URL
    /// Search words, or nil for the editorial feed.
    public var query: String?
    /// The access key.
    public var accessKey: String
    /// Photos per page (at most 30).
    public var perPage: Int

    /// The public API.
    public static let defaultBase = URL(string: "https://api.unsplash.com")!
    /// The referral parameters Unsplash asks to be added to links back to it.
    static let referral = "utm_source=fetch-gallery&utm_medium=referral"

    /// The editorial feed (`query` nil) or a search, with `accessKey`.
    public init(query: String?, accessKey: String, base: URL = UnsplashService.defaultBase, perPage: Int = 30) {
        self.query = query
        self.accessKey = accessKey
        self.base = base
        self.perPage = max(1, min(perPage, 30))
    }

    /// `unsplash`.
    public var name: String { "unsplash" }
    /// The base URL and the listing.
    public var sourceDescription: String { base.absoluteString + (query.map { " query=" + $0 } ?? " editorial") }

    var headers: [String: String] { ["Authorization": "Client-ID " + accessKey, "Accept-Version": "v1"] }

    /// Page `cursor` of the feed or the search.
    public func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .page(let number) = cursor else { throw .unusable(service: name, reason: "Unsplash lists by page number") }
        let url = query.map { SourceQuery.url(base, path: "/search/photos", [("query", $0), ("page", String(number)), ("per_page", String(perPage))]) }
            ?? SourceQuery.url(base, path: "/photos", [("page", String(number)), ("per_page", String(perPage))])
        let body = try await get(url, client: client)
        return try Self.batch(body, url: url, number: number, perPage: perPage, searching: query != nil)
    }

    /// Page `number` (of `perPage` photos) from the answer `body` to `url`: a bare array for the feed,
    /// `{results}` for a search (`searching` only names the missing list).
    static func batch(_ body: [UInt8], url: String, number: Int, perPage: Int, searching: Bool) throws(SourceError) -> SourceBatch {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(body)) } catch {
            throw .notJSON(page: URL(string: url) ?? URL(string: "about:blank")!, reason: String(describing: error))
        }
        let items: [Any]
        var totalPages: Int?
        if let list = parsed as? [Any] {
            items = list
        } else if let object = parsed as? [String: Any], let results = JSONFields.array(object["results"]) {
            items = results
            totalPages = JSONFields.int(object["total_pages"])
        } else {
            throw .missingList(page: URL(string: url) ?? URL(string: "about:blank")!, key: searching ? "results" : "[...]")
        }
        let (photos, skipped) = SkippedItem.sort(items) { Self.photo($0) }
        let ended = items.count < perPage || totalPages.map { number >= $0 } ?? false
        return SourceBatch(page: PhotoPage(currentPage: number, totalPages: totalPages, photos: photos, skipped: skipped),
                           next: ended ? nil : .page(number + 1))
    }

    /// Calls the photo's `links.download_location`, as the API guidelines require for every download.
    public func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError) {
        guard let ping = photo.downloadPing else { return }
        _ = try await get(ping, client: client)
    }

    /// A GET with the key; a refused key is named as such.
    private func get(_ url: String, client: SourceClient) async throws(SourceError) -> [UInt8] {
        do { return try await client.get(url, service: name, headers: headers).body } catch {
            if case let .service(_, url, 401, message) = error {
                throw .unusable(service: name, reason: "the access key was refused (HTTP 401 for \(url): \(message)); "
                    + "check UNSPLASH_ACCESS_KEY (or --key)")
            }
            throw error
        }
    }

    typealias Reason = SkippedItem.Reason

    static func photo(_ value: Any) -> Result<Photo, Reason> {
        guard let item = value as? [String: Any] else { return .failure(Reason(text: "not an object")) }
        guard let id = JSONFields.text(item["id"]) else { return .failure(Reason(text: "missing field 'id'")) }
        let urls = JSONFields.object(item["urls"]) ?? [:]
        let links = JSONFields.object(item["links"]) ?? [:]
        let width = JSONFields.int(item["width"])
        let height = JSONFields.int(item["height"])
        var images: [PhotoImage] = []
        if let full = JSONFields.text(urls["full"]) { images.append(PhotoImage(size: max(width ?? 0, height ?? 0, 1081), url: full)) }
        if let regular = JSONFields.text(urls["regular"]) { images.append(PhotoImage(size: 1080, url: regular)) }
        guard !images.isEmpty else { return .failure(Reason(text: "no urls.full or urls.regular")) }
        let user = JSONFields.object(item["user"]) ?? [:]
        let author = JSONFields.text(user["name"]) ?? JSONFields.text(user["username"])
        let credit = PhotoCredit(
            author: author, authorURL: JSONFields.text(JSONFields.object(user["links"])?["html"]).map(referred),
            licence: "Unsplash License", licenceURL: "https://unsplash.com/license",
            pageURL: JSONFields.text(links["html"]).map(referred),
            service: "Unsplash", serviceURL: "https://unsplash.com/?" + referral)
        let title = JSONFields.text(item["description"]) ?? JSONFields.text(item["alt_description"]) ?? ""
        return .success(Photo(
            id: PhotoID.gallery(source: "unsplash", id: id), name: title,
            description: JSONFields.text(item["alt_description"]),
            user: author.map { PhotoUser(username: JSONFields.text(user["username"]) ?? $0, fullname: $0) },
            width: width, height: height, images: images, sourceID: id, credit: credit,
            downloadPing: JSONFields.text(links["download_location"])))
    }

    /// `url` with Unsplash's referral parameters.
    static func referred(_ url: String) -> String { url + (url.contains("?") ? "&" : "?") + referral }
}
