import Foundation
import GallerySync

/// Unsplash's API as documented: `GET /photos` (editorial, a bare array), `GET /search/photos`
/// (`{total, total_pages, results}`), `GET /photos/ID/download` (the `download_location` every download
/// must call, answering `{"url": ...}`), all requiring `Authorization: Client-ID KEY` (else 401 with
/// `{"errors":["OAuth error: The access token is invalid"]}`). Photos carry `urls`, `links` (`html` with
/// the slug, `download_location` with the bare id) and `user` (`name`, `username`, `links.html`).
/// Every answer says `X-Ratelimit-Limit` and `X-Ratelimit-Remaining`; past the budget, 403 "Rate Limit Exceeded".
public final class UnsplashServer: Sendable {
    /// The server.
    public let server: FaultServer
    /// The photos listed, in order.
    public let photos: [ServicePhoto]
    /// The key the server accepts.
    public let key: String

    /// A service listing `photos`, accepting `key`, allowing `budget` requests.
    public init(photos: [ServicePhoto], key: String, budget: Int = 50) throws(TestSupportError) {
        server = try FaultServer()
        self.photos = photos
        self.key = key
        let base = server.baseURL
        let used = RequestCounter()
        @Sendable func guarded(_ request: FaultServer.Request, _ answer: () -> FaultServer.Response) -> FaultServer.Response {
            guard request.headers["Authorization"] == "Client-ID " + key else {
                return ServiceShapes.answer(#"{"errors":["OAuth error: The access token is invalid"]}"#, status: 401)
            }
            let count = used.next()
            guard count <= budget else { return .status(403, headers: ["X-Ratelimit-Limit": String(budget), "X-Ratelimit-Remaining": "0"], text: "Rate Limit Exceeded") }
            var response = answer()
            response.headers.set("X-Ratelimit-Limit", String(budget))
            response.headers.set("X-Ratelimit-Remaining", String(budget - count))
            return response
        }
        server.route("/photos") { request, _ in
            guarded(request) {
                let q = ServiceShapes.query(request)
                let slice = Self.page(photos, q)
                return ServiceShapes.answer("[" + slice.map { Self.item($0, base: base) }.joined(separator: ",") + "]")
            }
        }
        server.route("/search/photos") { request, _ in
            guarded(request) {
                let q = ServiceShapes.query(request)
                let found = photos.filter { _ in !(q["query"] ?? "").isEmpty }
                let per = Int(q["per_page"] ?? "10") ?? 10
                let slice = Self.page(found, q)
                return ServiceShapes.answer(#"{"total":\#(found.count),"total_pages":\#((found.count + per - 1) / per),"results":["#
                    + slice.map { Self.item($0, base: base) }.joined(separator: ",") + "]}")
            }
        }
        for photo in photos {
            let image = base + ServiceShapes.imagePath(photo)
            server.route("/photos/\(photo.id)/download") { request, _ in
                guarded(request) { ServiceShapes.answer(#"{"url":\#(ServiceShapes.json(image))}"#) }
            }
        }
        ServiceShapes.serveImages(photos, on: server)
    }

    /// Calls of each photo's `download_location`, by photo id.
    public func downloadCalls(_ photo: ServicePhoto) -> Int { server.requests(path: "/photos/\(photo.id)/download").count }

    static func page(_ photos: [ServicePhoto], _ q: [String: String]) -> [ServicePhoto] {
        let page = max(1, Int(q["page"] ?? "1") ?? 1)
        let per = max(1, Int(q["per_page"] ?? "10") ?? 10)
        let start = (page - 1) * per
        return start < photos.count ? Array(photos[start..<min(start + per, photos.count)]) : []
    }

    static func item(_ photo: ServicePhoto, base: String) -> String {
        let slug = photo.title.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " }.replacingOccurrences(of: " ", with: "-") + "-" + photo.id
        let image = base + ServiceShapes.imagePath(photo)
        return #"{"id":\#(ServiceShapes.json(photo.id)),"slug":\#(ServiceShapes.json(slug)),"created_at":"2024-01-21T13:28:11Z","#
            + #""width":\#(photo.width),"height":\#(photo.height),"description":\#(ServiceShapes.json(photo.title)),"#
            + #""alt_description":"a photo","urls":{"raw":\#(ServiceShapes.json(image + "?ixid=raw")),"full":\#(ServiceShapes.json(image)),"#
            + #""regular":\#(ServiceShapes.json(image + "?w=1080")),"small":\#(ServiceShapes.json(image + "?w=400")),"thumb":\#(ServiceShapes.json(image + "?w=200"))},"#
            + #""links":{"self":"\#(base)/photos/\#(photo.id)","html":"https://unsplash.com/photos/\#(slug)","download":"https://unsplash.com/photos/\#(photo.id)/download","#
            + #""download_location":"\#(base)/photos/\#(photo.id)/download?ixid=abc"},"likes":31,"#
            + #""user":{"id":"u\#(photo.id)","username":"user\#(photo.id.prefix(4))","name":\#(ServiceShapes.json(photo.author)),"#
            + #""links":{"html":"https://unsplash.com/@user\#(photo.id.prefix(4))"}}}"#
    }
}
