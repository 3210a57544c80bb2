import Foundation

/// A MediaWiki Action API answering like Wikimedia Commons for `generator=categorymembers` +
/// `prop=imageinfo` with `formatversion=2` (shapes from the API's documentation and recorded answers):
/// - batches of `gcmlimit` files; `continue` carries `gcmcontinue` and `"continue":"gcmcontinue||"`-style
///   values, and `batchcomplete: true` ends a batch;
/// - with `splitImageinfo`, each batch takes two answers: the first carries `imageinfo` for the first half
///   of the pages and a `continue` with `iicontinue`; the second repeats every page, only the second half
///   with `imageinfo`, and says `batchcomplete`;
/// - `extmetadata` values as HTML, some as numbers;
/// - `maxlagFirst`: the first request answers status 200 with `{"error":{"code":"maxlag",...}}` and
///   `Retry-After: 1`; `throttleOnce`: one request answers 429 with `Retry-After: 1`.
/// Files with `mime` other than JPEG are listed as given in `svgTitles` (image/svg+xml).
public final class CommonsServer: Sendable {
    /// The server; its log holds every request.
    public let server: FaultServer
    /// The files listed, in category order.
    public let files: [ServicePhoto]

    /// `server.baseURL + "/w/api.php"`.
    public var endpoint: String { server.url("/w/api.php") }

    /// A category of `files`, `svgCount` SVG files appended (listed, not decodable).
    public init(files: [ServicePhoto], splitImageinfo: Bool = true, maxlagFirst: Bool = false, throttleOnce: Bool = false,
                svgCount: Int = 0) throws(TestSupportError) {
        server = try FaultServer()
        self.files = files
        let base = server.baseURL
        let svgs = (0..<svgCount).map { "File:Diagram \($0).svg" }
        server.route("/w/api.php") { request, attempt in
            let q = ServiceShapes.query(request)
            if maxlagFirst && attempt == 1 {
                return ServiceShapes.answer(#"{"error":{"code":"maxlag","info":"Waiting for db1: 7 seconds lagged.","host":"db1","lag":7,"*":"See https://commons.wikimedia.org/w/api.php for API usage"},"servedby":"mw1"}"#,
                                            headers: ["Retry-After": "1", "X-Database-Lag": "7"])
            }
            if throttleOnce && attempt == 2 {
                return ServiceShapes.answer(#"{"error":{"code":"ratelimited","info":"Too many requests"}}"#, status: 429,
                                            headers: ["Retry-After": "1"])
            }
            let required = ["action": "query", "format": "json", "formatversion": "2", "generator": "categorymembers",
                            "gcmtype": "file", "prop": "imageinfo"]
            for (key, value) in required where q[key] != value {
                return ServiceShapes.answer(#"{"error":{"code":"badparams","info":"expected \#(key)=\#(value)"}}"#)
            }
            guard q["maxlag"] != nil, (q["iiprop"] ?? "").contains("extmetadata"), (q["gcmtitle"] ?? "").hasPrefix("Category:") else {
                return ServiceShapes.answer(#"{"error":{"code":"badparams","info":"maxlag, iiprop=...|extmetadata and gcmtitle=Category:... expected"}}"#)
            }
            let limit = Int(q["gcmlimit"] ?? "10") ?? 10
            let start = Int((q["gcmcontinue"] ?? "file|0").split(separator: "|").last ?? "0") ?? 0
            let all = files.count + svgs.count
            let end = min(start + limit, all)
            let inBatch = Array(start..<max(start, end))
            let second = q["iicontinue"] != nil
            if second && q["continue"] != "gcmcontinue||" {
                return ServiceShapes.answer(#"{"error":{"code":"badcontinue","info":"send every key of continue back"}}"#)
            }
            let half = (inBatch.count + 1) / 2
            var pages: [String] = []
            for (offset, index) in inBatch.enumerated() {
                let withInfo = !splitImageinfo || (second ? offset >= half : offset < half)
                pages.append(Self.page(index: index, files: files, svgs: svgs, base: base, withInfo: withInfo))
            }
            var body = #"{"query":{"pages":[\#(pages.joined(separator: ","))]}"#
            let more = end < all
            if splitImageinfo && !second && inBatch.count > 1 {
                var cont = [#""iicontinue":"\#(5000 + inBatch[half])|20250101000000""#,
                            #""continue":"gcmcontinue||""#]
                if let current = q["gcmcontinue"] { cont.insert(#""gcmcontinue":\#(ServiceShapes.json(current))"#, at: 0) }
                body += #","continue":{\#(cont.joined(separator: ","))}"#
            } else {
                body += #","batchcomplete":true"#
                if more { body += #","continue":{"gcmcontinue":"file|\#(end)","continue":"-||"}"# }
            }
            return ServiceShapes.answer(body + "}")
        }
        ServiceShapes.serveImages(files, on: server)
    }

    /// Answers to requests that carried `iicontinue` (the second half of split batches).
    public var iicontinueRequests: [FaultServer.Request] {
        server.requests(path: "/w/api.php").filter { ServiceShapes.query($0)["iicontinue"] != nil }
    }

    static func page(index: Int, files: [ServicePhoto], svgs: [String], base: String, withInfo: Bool) -> String {
        let pageid = 5000 + index
        guard index < files.count else {
            let title = svgs[index - files.count]
            let info = withInfo ? #","imageinfo":[{"size":2000,"width":800,"height":600,"url":"\#(base)/img/diagram.svg","mime":"image/svg+xml","sha1":"00","descriptionurl":"https://commons.wikimedia.org/wiki/\#(title)","extmetadata":{}}]"# : ""
            return #"{"pageid":\#(pageid),"ns":6,"title":\#(ServiceShapes.json(title)),"imagerepository":"local"\#(info)}"#
        }
        let file = files[index]
        let title = "File:" + file.title + ".jpg"
        var page = #"{"pageid":\#(pageid),"ns":6,"title":\#(ServiceShapes.json(title)),"imagerepository":"local""#
        if withInfo {
            let url = base + ServiceShapes.imagePath(file)
            let description = "https://commons.wikimedia.org/wiki/" + title.replacingOccurrences(of: " ", with: "_")
            page += #","imageinfo":[{"timestamp":"2024-05-01T10:00:00Z","size":\#(file.image.bytes.count),"width":\#(file.width),"height":\#(file.height),"#
                + #""url":\#(ServiceShapes.json(url)),"descriptionurl":\#(ServiceShapes.json(description)),"descriptionshorturl":"https://commons.wikimedia.org/w/index.php?curid=\#(pageid)","#
                + #""mime":"image/jpeg","sha1":"0123456789abcdef","extmetadata":{"#
                + #""ObjectName":{"value":\#(ServiceShapes.json(file.title)),"source":"commons-desc-page"},"#
                + #""Artist":{"value":\#(ServiceShapes.json(file.author)),"source":"commons-desc-page"},"#
                + #""LicenseShortName":{"value":"CC BY-SA 4.0","source":"commons-desc-page","hidden":""},"#
                + #""LicenseUrl":{"value":"https://creativecommons.org/licenses/by-sa/4.0","source":"commons-desc-page","hidden":""},"#
                + #""ImageDescription":{"value":"<div class=\"description\">A <b>landscape</b> &amp; sky</div>","source":"commons-desc-page"},"#
                + #""DateTimeOriginal":{"value":2024,"source":"commons-desc-page"},"CommonsMetadataExtension":{"value":1.2,"source":"extension","hidden":""}}}]"#
        }
        return page + "}"
    }
}
