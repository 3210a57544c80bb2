import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery --source flickr` end to end against a local server answering Flickr's recorded shapes:
/// numbers as strings, `url_o` missing where downloads are not allowed, licence names from
/// `flickr.photos.licenses.getInfo`, errors as `stat=fail` at status 200, the key in the URL redacted.
@Suite struct FlickrCLITests {
    static let key = "f1ickrk3y0123456789abcdef0123456"

    static func photos(_ count: Int) throws -> [ServicePhoto] {
        var photos = try ServicePhoto.make(count) { String(53_766_110_000 + $0) }
        if count > 1 { photos[1].noOriginal = true; photos[1].title = #"Harbour <svg onload=alert(1)>"# }
        return photos
    }

    @Test func interestingPhotosWithLicenceNamesFromGetInfo() async throws {
        let photos = try Self.photos(5)
        let flickr = try FlickrServer(photos: photos, key: Self.key)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--source", "flickr", "--api", flickr.endpoint, "--per-page", "2", "--pages", "9"]
        let result = try SourceCLIKit.run(args, out: out, environment: ["FLICKR_API_KEY": Self.key])
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let methods = flickr.server.requests(path: "/services/rest/").map { ServiceShapes.query($0)["method"] ?? "" }
        #expect(methods == ["flickr.photos.licenses.getInfo"] + Array(repeating: "flickr.interestingness.getList", count: 3),
                "licences asked once, then pages until \"pages\":\"3\": \(methods)")
        try SourceCLIKit.expectOriginals(out, photos, sourceID: \.id)
        let manifest = try SourceCLIKit.photosBySourceID(out)
        let licences = photos.map { (manifest[$0.id]?["credit"] as? [String: String])?["licence"] ?? "-" }
        #expect(licences == ["CC BY 2.0", "CC BY-SA 4.0", "CC BY-NC-ND 4.0", "CC BY 2.0", "CC BY-SA 4.0"])
        let credit = manifest[photos[0].id]?["credit"] as? [String: String] ?? [:]
        #expect(credit["page_url"] == "https://www.flickr.com/photos/12037949754@N01/\(photos[0].id)/")
        #expect(credit["licence_url"] == "https://creativecommons.org/licenses/by/2.0/")
        #expect(manifest[photos[1].id]?["status"] as? String == "ok", "no url_o: url_l is taken")
        for (path, data) in SourceCLIKit.files(under: out) where path.hasSuffix(".html") {
            #expect(!String(decoding: data, as: UTF8.self).contains("<svg onload"), "\(path)")
        }
        SourceCLIKit.expectNowhere(Self.key, in: out, result)
        let again = try SourceCLIKit.run(args, out: out, environment: ["FLICKR_API_KEY": Self.key])
        #expect(again.exitCode == 0 && SourceCLIKit.bytesDownloaded(again) == 0, "stderr: \(again.stderrText)")
    }

    @Test func searchSendsTextAndSafeSearch() async throws {
        let photos = try Self.photos(3)
        let flickr = try FlickrServer(photos: photos, key: Self.key)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "flickr", "--query", "lighthouse", "--api", flickr.endpoint],
                                          out: out, environment: ["FLICKR_API_KEY": Self.key])
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let search = flickr.server.requests(path: "/services/rest/").map(ServiceShapes.query).first { $0["method"] == "flickr.photos.search" }
        #expect(search?["text"] == "lighthouse" && search?["safe_search"] == "1")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 3)
    }

    @Test func statFailAtStatus200IsAnErrorAndTheKeyIsRedacted() async throws {
        let flickr = try FlickrServer(photos: try Self.photos(2), key: Self.key)
        let dir = try TempDirectory()
        let wrong = "expired-flickr-key-abcdef123456"
        let result = try SourceCLIKit.run(["--source", "flickr", "--api", flickr.endpoint], out: dir.file("g"),
                                          environment: ["FLICKR_API_KEY": wrong])
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("code 100") && result.stderrText.contains("FLICKR_API_KEY"), "\(result.stderrText)")
        SourceCLIKit.expectNowhere(wrong, in: dir.file("g"), result)
    }

    @Test func anErrorNamingTheURLRedactsTheKey() async throws {
        // A server that answers the listing with a 500 page: the error names the URL, whose api_key is redacted.
        let server = try FaultServer()
        server.route("/services/rest/") { _, _ in .status(404, text: "no such endpoint") }
        let dir = try TempDirectory()
        let result = try SourceCLIKit.run(["--source", "flickr", "--api", server.url("/services/rest/"), "--key", Self.key],
                                          out: dir.file("g"))
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("api_key=REDACTED"), "\(result.stderrText)")
        SourceCLIKit.expectNowhere(Self.key, in: dir.file("g"), result)
    }
}
