import Foundation
import GallerySync

/// Openverse's `/v1/images/` as an anonymous client meets it (documented shapes and recorded answers):
/// `result_count`, `page_count`, `page_size`, `page`, `results` (UUID ids, `creator`/`creator_url`,
/// `license`/`license_version`/`license_url`, `foreign_landing_url`, `mature`, `width`/`height`/`filetype`
/// that may be null); `page_size` above 20 answers 401; pages past 20 answer 400; sensitive items are
/// listed only with `mature=true`; every success carries `X-RateLimit-*-anon_burst` / `_sustained`.
/// Faults: `throttleOnRequest` answers that request 429 with the throttle `detail` and no `Retry-After`;
/// `sustainedLeft` makes the daily budget run out after that many answers.
public final class OpenverseServer: Sendable {
    /// The server.
    public let server: FaultServer
    /// Everything the search finds, mature items included, in order.
    public let photos: [ServicePhoto]

    /// A search finding `photos`.
    /// `leaksMature`: the server lists mature items even without `mature=true` (the client must still leave them out).
    public init(photos: [ServicePhoto], throttleOnRequest: Int? = nil, sustainedLeft: Int? = nil,
                leaksMature: Bool = false) throws(TestSupportError) {
        server = try FaultServer()
        self.photos = photos
        let base = server.baseURL
        let counter = RequestCounter()
        server.route("/v1/images/") { request, _ in
            let number = counter.next()
            let q = ServiceShapes.query(request)
            if number == throttleOnRequest {
                return ServiceShapes.answer(#"{"detail":"Request was throttled. Expected available in 1 seconds."}"#, status: 429)
            }
            let size = Int(q["page_size"] ?? "20") ?? 20
            if size > 20 {
                return ServiceShapes.answer(#"{"detail":"Authentication credentials were not provided."}"#, status: 401)
            }
            let page = Int(q["page"] ?? "1") ?? 1
            if page > 20 {
                return ServiceShapes.answer(#"{"detail":"Invalid page: pagination beyond 20 pages requires authentication."}"#, status: 400)
            }
            let visible = q["mature"] == "true" || leaksMature ? photos : photos.filter { !$0.mature }
            let start = (page - 1) * size
            let slice = start < visible.count ? Array(visible[start..<min(start + size, visible.count)]) : []
            let results = slice.enumerated().map { offset, photo in Self.item(photo, base: base, nullSize: offset % 2 == 1) }
            let pageCount = (visible.count + size - 1) / size
            let sustained = sustainedLeft.map { max(0, $0 - number) } ?? 195
            return ServiceShapes.answer(
                #"{"result_count":\#(visible.count),"page_count":\#(pageCount),"page_size":\#(size),"page":\#(page),"results":[\#(results.joined(separator: ","))]}"#,
                headers: ["X-RateLimit-Limit-anon_burst": "20/min", "X-RateLimit-Available-anon_burst": "19",
                          "X-RateLimit-Limit-anon_sustained": "200/day", "X-RateLimit-Available-anon_sustained": String(sustained)])
        }
        ServiceShapes.serveImages(photos, on: server)
    }

    static func item(_ photo: ServicePhoto, base: String, nullSize: Bool) -> String {
        let size = nullSize ? #""width":null,"height":null,"filetype":null"#
            : #""width":\#(photo.width),"height":\#(photo.height),"filetype":"jpg""#
        return #"{"id":\#(ServiceShapes.json(photo.id)),"title":\#(ServiceShapes.json(photo.title)),"#
            + #""foreign_landing_url":"https://www.flickr.com/photos/someone/\#(photo.id.prefix(8))","#
            + #""url":\#(ServiceShapes.json(base + ServiceShapes.imagePath(photo))),"creator":\#(ServiceShapes.json(photo.author)),"#
            + #""creator_url":"https://www.flickr.com/photos/someone","license":"by-sa","license_version":"2.0","#
            + #""license_url":"https://creativecommons.org/licenses/by-sa/2.0/","provider":"flickr","source":"flickr","#
            + #""category":null,"filesize":null,\#(size),"mature":\#(photo.mature),"tags":[],"#
            + #""attribution":"\"\#(photo.title.replacingOccurrences(of: "\"", with: ""))\" by someone is licensed under CC BY-SA 2.0.","#
            + #""thumbnail":"\#(base)/v1/images/\#(photo.id)/thumb/","detail_url":"\#(base)/v1/images/\#(photo.id)/","related_url":"\#(base)/v1/images/\#(photo.id)/related/","#
            + #""fields_matched":["title"]}"#
    }
}

/// Counts requests across a server's threads.
final class RequestCounter: Sendable {
    private let count = Locked(0)
    func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
