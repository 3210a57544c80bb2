import Foundation
import GallerySync

/// Flickr's REST API: today's interesting photos (`flickr.interestingness.getList`) or a search
/// (`flickr.photos.search`), with `extras=url_o,url_k,url_h,url_l,url_c,owner_name,license,o_dims,description,date_taken`
/// and the key as `api_key` (redacted from every message: it travels in the URL).
///
/// What Flickr really sends, and what this source does about it:
/// - errors come with status 200 as `{"stat":"fail","code":N,"message":...}`: an error (code 100, an
///   invalid or expired key, is named as such);
/// - numbers come as strings (`"pages":"5"`, `"license":"4"`, `"o_width":"4932"`): read either way;
/// - the largest size offered is taken: `url_o`, else `url_k`, `url_h`, `url_l`, `url_c` (`url_o` is
///   missing where the owner does not allow downloads);
/// - licence ids are mapped to names and links by `flickr.photos.licenses.getInfo`, asked once per run
///   (the list now runs 0 to 16), never from a built-in table;
/// - a search sends `safe_search=1` unless NSFW photos were asked for.
public struct FlickrService: PhotoService {
    /// `https://api.flickr.com/services/rest/` by default (`--api` replaces it).
    public var endpoint: URL
    /// Search words, or nil for the interesting photos.
    public var query: String?
    /// The API key.
    public var key: String
    /// Photos per page (at most 500).
    public var perPage: Int
    /// Search without safe-search filtering.
    public var includeNSFW: Bool
    private let licences = LicenceTable()

    /// The public endpoint.
    public static let defaultEndpoint = URL(string: "https://api.flickr.com/services/rest/")!
    /// Sizes by preference, largest first, with their nominal longest edge.
    static let sizes: [(suffix: String, edge: Int)] = [("o", 100_000), ("k", 2048), ("h", 1600), ("l", 1024), ("c", 800)]

    /// Interesting photos (`query` nil) or a search, with `key`.
    public init(query: String?, key: String, endpoint: URL = FlickrService.defaultEndpoint, perPage: Int = 100,
                includeNSFW: Bool = false) {
        self.query = query
        self.key = key
        self.endpoint = endpoint
        self.perPage = max(1, min(perPage, 500))
        self.includeNSFW = includeNSFW
    }

    /// `flickr`.
    public var name: String { "flickr" }
    /// The endpoint and the listing.
    public var sourceDescription: String { endpoint.absoluteString + (query.map { " text=" + $0 } ?? " interestingness") }

    /// Page `cursor` of the listing, licence names filled in.
    public func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .page(let number) = cursor else { throw .unusable(service: name, reason: "Flickr lists by page number") }
        let table = try await licenceTable(client)
        var items: [(String, String)] = [
            ("method", query == nil ? "flickr.interestingness.getList" : "flickr.photos.search"),
            ("extras", "url_o,url_k,url_h,url_l,url_c,owner_name,license,o_dims,description,date_taken"),
            ("per_page", String(perPage)), ("page", String(number)),
        ]
        if let query { items += [("text", query), ("sort", "relevance"), ("media", "photos"), ("safe_search", includeNSFW ? "3" : "1")] }
        let object = try await call(items, client: client)
        return try Self.batch(object, endpoint: endpoint, number: number, licences: table)
    }

    /// Page `number` from a successful (`stat=ok`) answer, licence ids named from `licences`.
    static func batch(_ object: [String: Any], endpoint: URL, number: Int,
                      licences table: [Int: (name: String, url: String?)]) throws(SourceError) -> SourceBatch {
        guard let list = JSONFields.object(object["photos"]), let photosList = JSONFields.array(list["photo"]) else {
            throw .missingList(page: endpoint, key: "photos.photo")
        }
        let (photos, skipped) = SkippedItem.sort(photosList) { Self.photo($0, licences: table) }
        let pages = JSONFields.int(list["pages"])
        let ended = photosList.isEmpty || pages.map { number >= $0 } ?? true
        return SourceBatch(page: PhotoPage(currentPage: number, totalPages: pages, totalItems: JSONFields.int(list["total"]),
                                           photos: photos, skipped: skipped),
                           next: ended ? nil : .page(number + 1))
    }

    /// One REST call: `stat=fail` (at status 200) is an error; code 100 names the key.
    private func call(_ items: [(String, String)], client: SourceClient) async throws(SourceError) -> [String: Any] {
        let url = SourceQuery.url(endpoint, path: "", items + [("api_key", key), ("format", "json"), ("nojsoncallback", "1")])
        let response = try await client.get(url, service: name)
        let object = try JSONFields.object(of: response.body, url: client.redactor.redact(url))
        guard JSONFields.string(object["stat"]) == "ok" else {
            let code = JSONFields.int(object["code"])
            let message = client.redactor.redact(JSONFields.string(object["message"]) ?? "no message")
            if code == 100 {
                throw .unusable(service: name, reason: "the API key was refused (Flickr code 100: \(message)); check FLICKR_API_KEY (or --key)")
            }
            throw .service(service: name, url: client.redactor.redact(url), status: response.status,
                           message: "stat=\(JSONFields.string(object["stat"]) ?? "missing"), code \(code.map(String.init) ?? "?"): \(message)")
        }
        return object
    }

    /// The licence names and links, asked once.
    private func licenceTable(_ client: SourceClient) async throws(SourceError) -> [Int: (name: String, url: String?)] {
        if let known = licences.table.withLock({ $0 }) { return known }
        let object = try await call([("method", "flickr.photos.licenses.getInfo")], client: client)
        let table = Self.licenceTable(object)
        licences.table.withLock { $0 = table }
        return table
    }

    /// The licences of a `flickr.photos.licenses.getInfo` answer; entries without an id or a name are left out.
    static func licenceTable(_ object: [String: Any]) -> [Int: (name: String, url: String?)] {
        var table: [Int: (name: String, url: String?)] = [:]
        for case let entry as [String: Any] in JSONFields.array(JSONFields.object(object["licenses"])?["license"]) ?? [] {
            guard let id = JSONFields.int(entry["id"]), let name = JSONFields.text(entry["name"]) else { continue }
            table[id] = (name, JSONFields.text(entry["url"]))
        }
        return table
    }

    typealias Reason = SkippedItem.Reason

    static func photo(_ value: Any, licences: [Int: (name: String, url: String?)]) -> Result<Photo, Reason> {
        guard let item = value as? [String: Any] else { return .failure(Reason(text: "not an object")) }
        guard let id = JSONFields.text(item["id"]) else { return .failure(Reason(text: "missing field 'id'")) }
        var images: [PhotoImage] = []
        var width: Int?
        var height: Int?
        for (suffix, edge) in sizes {
            guard let url = JSONFields.text(item["url_" + suffix]) else { continue }
            let w = JSONFields.int(item["width_" + suffix]) ?? (suffix == "o" ? JSONFields.int(item["o_width"]) : nil)
            let h = JSONFields.int(item["height_" + suffix]) ?? (suffix == "o" ? JSONFields.int(item["o_height"]) : nil)
            if width == nil { (width, height) = (w, h) }
            images.append(PhotoImage(size: max(w ?? 0, h ?? 0) > 0 ? max(w ?? 0, h ?? 0) : edge, url: url))
        }
        guard !images.isEmpty else { return .failure(Reason(text: "photo \(id): no url_o, url_k, url_h, url_l or url_c")) }
        let owner = JSONFields.text(item["owner"])
        let licence = JSONFields.int(item["license"]).flatMap { licences[$0] }
        let description = JSONFields.string(JSONFields.object(item["description"])?["_content"]).map { HTMLText.reduce($0).text }
        let credit = PhotoCredit(
            author: JSONFields.text(item["ownername"]) ?? owner,
            authorURL: owner.map { "https://www.flickr.com/people/\(Self.pathSafe($0))/" },
            licence: licence?.name, licenceURL: licence?.url,
            pageURL: owner.map { "https://www.flickr.com/photos/\(Self.pathSafe($0))/\(Self.pathSafe(id))/" },
            service: "Flickr", serviceURL: "https://www.flickr.com/")
        let gallery = PhotoID.gallery(source: "flickr", id: id)
        return .success(Photo(
            id: gallery, name: JSONFields.string(item["title"]) ?? "", description: description?.isEmpty == false ? description : nil,
            user: credit.author.map { PhotoUser(username: $0) }, width: width, height: height, images: images,
            sourceID: String(gallery) == id ? nil : id, credit: credit))
    }

    static func pathSafe(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: Redactor.unreserved.union(CharacterSet(charactersIn: "@"))) ?? ""
    }
}

/// The licence list of one run, shared by the copies of a ``FlickrService``.
final class LicenceTable: Sendable {
    let table = Locked<[Int: (name: String, url: String?)]?>(nil)
}
