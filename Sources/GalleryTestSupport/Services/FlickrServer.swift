import Foundation

/// Flickr's REST endpoint (`/services/rest/?method=...&api_key=...&format=json&nojsoncallback=1`) as
/// recorded answers show it: `flickr.interestingness.getList` and `flickr.photos.search` answer
/// `{"photos":{"page":1,"pages":"3","perpage":2,"total":"5","photo":[...]},"stat":"ok"}` with numbers as
/// strings, the extras asked for (`url_o` only where downloads are allowed, `url_l`, `ownername`,
/// `license`, `o_width`/`o_height`, `description._content`, `datetaken`);
/// `flickr.photos.licenses.getInfo` lists licences 0 to 16 with today's short names; a wrong key answers
/// status 200 with `{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}`.
public final class FlickrServer: Sendable {
    /// The server.
    public let server: FaultServer
    /// The photos listed.
    public let photos: [ServicePhoto]

    /// `server.url("/services/rest/")`.
    public var endpoint: String { server.url("/services/rest/") }

    /// The licence list of 2024 onwards: ids 0 to 16, Creative Commons 4.0 at 11 to 16.
    public static let licences: [(id: Int, name: String, url: String)] = [
        (0, "All Rights Reserved", ""), (1, "CC BY-NC-SA 2.0", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
        (2, "CC BY-NC 2.0", "https://creativecommons.org/licenses/by-nc/2.0/"), (3, "CC BY-NC-ND 2.0", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
        (4, "CC BY 2.0", "https://creativecommons.org/licenses/by/2.0/"), (5, "CC BY-SA 2.0", "https://creativecommons.org/licenses/by-sa/2.0/"),
        (6, "CC BY-ND 2.0", "https://creativecommons.org/licenses/by-nd/2.0/"), (7, "No known copyright restrictions", "https://www.flickr.com/commons/usage/"),
        (8, "United States Government Work", "http://www.usa.gov/copyright.shtml"), (9, "Public Domain Dedication (CC0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
        (10, "Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"), (11, "CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
        (12, "CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"), (13, "CC BY-ND 4.0", "https://creativecommons.org/licenses/by-nd/4.0/"),
        (14, "CC BY-NC 4.0", "https://creativecommons.org/licenses/by-nc/4.0/"), (15, "CC BY-NC-SA 4.0", "https://creativecommons.org/licenses/by-nc-sa/4.0/"),
        (16, "CC BY-NC-ND 4.0", "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
    ]

    /// A service listing `photos` (licence ids cycling 4, 12, 16), accepting `key`.
    public init(photos: [ServicePhoto], key: String) throws(TestSupportError) {
        server = try FaultServer()
        self.photos = photos
        let base = server.baseURL
        server.route("/services/rest/") { request, _ in
            let q = ServiceShapes.query(request)
            guard q["api_key"] == key else {
                return ServiceShapes.answer(#"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#)
            }
            guard q["format"] == "json", q["nojsoncallback"] == "1" else {
                return .status(200, headers: ["Content-Type": "text/xml"], text: #"<?xml version="1.0"?><rsp stat="fail"><err code="111" msg="Format not found"/></rsp>"#)
            }
            switch q["method"] ?? "" {
            case "flickr.photos.licenses.getInfo":
                let list = Self.licences.map { #"{"id":\#($0.id),"name":\#(ServiceShapes.json($0.name)),"url":\#(ServiceShapes.json($0.url))}"# }
                return ServiceShapes.answer(#"{"licenses":{"license":[\#(list.joined(separator: ","))]},"stat":"ok"}"#)
            case "flickr.interestingness.getList", "flickr.photos.search":
                let extras = (q["extras"] ?? "").split(separator: ",").map(String.init)
                for needed in ["url_o", "url_l", "owner_name", "license", "o_dims", "description", "date_taken"] where !extras.contains(needed) {
                    return ServiceShapes.answer(#"{"stat":"fail","code":3,"message":"extras must include \#(needed)"}"#)
                }
                let found = q["method"] == "flickr.photos.search" && (q["text"] ?? "").isEmpty ? [] : photos
                let page = max(1, Int(q["page"] ?? "1") ?? 1)
                let per = max(1, Int(q["per_page"] ?? "100") ?? 100)
                let start = (page - 1) * per
                let slice = start < found.count ? Array(found[start..<min(start + per, found.count)]) : []
                let items = slice.enumerated().map { offset, photo in Self.item(photo, base: base, licence: [4, 12, 16][(start + offset) % 3]) }
                let pages = (found.count + per - 1) / per
                return ServiceShapes.answer(#"{"photos":{"page":\#(page),"pages":"\#(pages)","perpage":\#(per),"total":"\#(found.count)","photo":[\#(items.joined(separator: ","))]},"stat":"ok"}"#)
            default:
                return ServiceShapes.answer(#"{"stat":"fail","code":112,"message":"Method \"\#(q["method"] ?? "")\" not found"}"#)
            }
        }
        ServiceShapes.serveImages(photos, on: server)
    }

    static func item(_ photo: ServicePhoto, base: String, licence: Int) -> String {
        let image = ServiceShapes.json(base + ServiceShapes.imagePath(photo))
        var fields = #"{"id":"\#(photo.id)","owner":"12037949754@N01","secret":"2d5c3a7b1f","server":"65535","farm":66,"#
            + #""title":\#(ServiceShapes.json(photo.title)),"ispublic":1,"isfriend":0,"isfamily":0,"license":"\#(licence)","#
            + #""description":{"_content":"Shot at <a href=\"https://example.com\">the pier</a> &amp; harbour"},"#
            + #""datetaken":"2024-06-01 18:22:05","datetakengranularity":"0","datetakenunknown":"0","ownername":\#(ServiceShapes.json(photo.author)),"#
            + #""url_l":\#(image),"height_l":"\#(photo.height)","width_l":"\#(photo.width)""#
        if !photo.noOriginal {
            fields += #","o_width":"\#(photo.width)","o_height":"\#(photo.height)","url_o":\#(image),"height_o":"\#(photo.height)","width_o":"\#(photo.width)""#
        }
        return fields + "}"
    }
}
