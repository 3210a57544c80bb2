import Foundation
import GallerySync

/// Pexels' API as documented: `GET /v1/curated` and `GET /v1/search` answering `{page, per_page, photos,
/// total_results, next_page}` (no `next_page` on the last page), each photo with `id`, `width`, `height`,
/// `url`, `photographer`, `photographer_url`, `src.original` and smaller sizes, `alt`. The key is the bare
/// `Authorization` header (else 401 `{"error":"..."}`). `X-Ratelimit-Limit` / `-Remaining` / `-Reset`
/// (a UNIX time) come only on successful answers; past `budget`, or on `throttleOnRequest`, a 429 with none.
public final class PexelsServer: Sendable {
    /// The server.
    public let server: FaultServer
    /// The photos listed.
    public let photos: [ServicePhoto]

    /// A service listing `photos`, accepting `key`. `budget` requests succeed; the budget resets at `reset`.
    public init(photos: [ServicePhoto], key: String, budget: Int = 200, reset: Date = Date().addingTimeInterval(3600),
                throttleOnRequest: Int? = nil) throws(TestSupportError) {
        server = try FaultServer()
        self.photos = photos
        let base = server.baseURL
        let used = RequestCounter()
        let resetText = String(Int(reset.timeIntervalSince1970))
        @Sendable func listing(_ request: FaultServer.Request, _ found: [ServicePhoto], path: String) -> FaultServer.Response {
            guard request.headers["Authorization"] == key else {
                return ServiceShapes.answer(#"{"error":"Authorization field missing or invalid"}"#, status: 401)
            }
            let count = used.next()
            if count > budget || count == throttleOnRequest {
                return .status(429, text: "Too Many Requests")
            }
            let q = ServiceShapes.query(request)
            let page = max(1, Int(q["page"] ?? "1") ?? 1)
            let per = max(1, Int(q["per_page"] ?? "15") ?? 15)
            let start = (page - 1) * per
            let slice = start < found.count ? Array(found[start..<min(start + per, found.count)]) : []
            var body = #"{"page":\#(page),"per_page":\#(per),"total_results":\#(found.count),"photos":["#
                + slice.map { Self.item($0, base: base) }.joined(separator: ",") + "]"
            if start + per < found.count { body += #","next_page":"https://api.pexels.com\#(path)?page=\#(page + 1)&per_page=\#(per)""# }
            return ServiceShapes.answer(body + "}", headers: [
                "X-Ratelimit-Limit": String(budget), "X-Ratelimit-Remaining": String(max(0, budget - count)),
                "X-Ratelimit-Reset": resetText,
            ])
        }
        server.route("/v1/curated") { request, _ in listing(request, photos, path: "/v1/curated") }
        server.route("/v1/search") { request, _ in
            listing(request, (ServiceShapes.query(request)["query"] ?? "").isEmpty ? [] : photos, path: "/v1/search")
        }
        ServiceShapes.serveImages(photos, on: server)
    }

    static func item(_ photo: ServicePhoto, base: String) -> String {
        let image = base + ServiceShapes.imagePath(photo)
        return #"{"id":\#(photo.id),"width":\#(photo.width),"height":\#(photo.height),"#
            + #""url":"https://www.pexels.com/photo/photo-\#(photo.id)/","photographer":\#(ServiceShapes.json(photo.author)),"#
            + #""photographer_url":"https://www.pexels.com/@author-\#(photo.id)","photographer_id":\#(photo.id),"avg_color":"7E7E7E","#
            + #""src":{"original":\#(ServiceShapes.json(image)),"large2x":\#(ServiceShapes.json(image + "?h=650&dpr=2")),"#
            + #""large":\#(ServiceShapes.json(image + "?h=650")),"medium":\#(ServiceShapes.json(image + "?h=350")),"tiny":\#(ServiceShapes.json(image + "?h=200"))},"#
            + #""liked":false,"alt":\#(ServiceShapes.json(photo.title))}"#
    }
}
