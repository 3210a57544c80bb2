import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery --source pexels` end to end against a local server answering Pexels' documented
/// shapes: the bare key in `Authorization`, `src.original`, "Photo by NAME on Pexels", `next_page`,
/// rate-limit headers only on successes and a bare 429.
@Suite struct PexelsCLITests {
    static let key = "563492ad6f91700001000001pexelskey0123"

    static func photos(_ count: Int) throws -> [ServicePhoto] {
        var photos = try ServicePhoto.make(count) { String(2_014_422 + $0) }
        if count > 1 { photos[1].author = #"<img src=x onerror=alert(1)>Joe"# }
        return photos
    }

    @Test func curatedPhotosWithCreditAndNoKeyLeft() async throws {
        let photos = try Self.photos(5)
        let pexels = try PexelsServer(photos: photos, key: Self.key)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--source", "pexels", "--api", pexels.server.baseURL, "--per-page", "2", "--pages", "9"]
        let result = try SourceCLIKit.run(args, out: out, environment: ["PEXELS_API_KEY": Self.key])
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(pexels.server.requests(path: "/v1/curated").count == 3, "ends at the page without next_page")
        try SourceCLIKit.expectOriginals(out, photos, sourceID: \.id)
        let manifest = try SourceCLIKit.photosBySourceID(out)
        #expect(manifest[photos[0].id]?["id"] as? Int == 2_014_422, "numeric ids name the files as they are")
        let credit = manifest[photos[1].id]?["credit"] as? [String: String] ?? [:]
        #expect(credit["author"] == "<img src=x onerror=alert(1)>Joe" && credit["service"] == "Pexels")
        #expect(credit["author_url"] == "https://www.pexels.com/@author-2014423")
        let pages = SourceCLIKit.files(under: out + "/pages").values.map { String(decoding: $0, as: UTF8.self) }
        #expect(pages.contains { $0.contains("Photo by ") && $0.contains(#"href="https://www.pexels.com/""#) })
        #expect(!pages.contains { $0.contains("<img src=x") })
        SourceCLIKit.expectNowhere(Self.key, in: out, result)
        let again = try SourceCLIKit.run(args, out: out, environment: ["PEXELS_API_KEY": Self.key])
        #expect(again.exitCode == 0 && SourceCLIKit.bytesDownloaded(again) == 0, "stderr: \(again.stderrText)")
    }

    @Test func bare429IsWaitedForAndAskedAgain() async throws {
        let photos = try Self.photos(4)
        let pexels = try PexelsServer(photos: photos, key: Self.key, throttleOnRequest: 2)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "pexels", "--query", "ocean", "--api", pexels.server.baseURL,
                                           "--per-page", "2", "--rate-limit-wait", "1"], out: out,
                                          environment: ["PEXELS_API_KEY": Self.key])
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let pages = pexels.server.requests(path: "/v1/search").map { ServiceShapes.query($0)["page"] ?? "" }
        #expect(pages == ["1", "2", "2"], "\(pages)")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 4)
    }

    @Test func spentBudgetStopsAtItsResetTime() async throws {
        let photos = try Self.photos(6)
        let reset = Date().addingTimeInterval(1800)
        let pexels = try PexelsServer(photos: photos, key: Self.key, budget: 1, reset: reset)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "pexels", "--api", pexels.server.baseURL, "--per-page", "2"], out: out,
                                          environment: ["PEXELS_API_KEY": Self.key])
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("pexels") && result.stderrText.contains("X-Ratelimit-Remaining: 0"))
        #expect(pexels.server.requests(path: "/v1/curated").count == 1, "the 429 is never asked for")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 2)
        SourceCLIKit.expectNowhere(Self.key, in: out, result)
    }

    @Test func refusedKeyExitsThree() async throws {
        let pexels = try PexelsServer(photos: try Self.photos(1), key: Self.key)
        let dir = try TempDirectory()
        let result = try SourceCLIKit.run(["--source", "pexels", "--api", pexels.server.baseURL, "--key", "not-the-key-123"],
                                          out: dir.file("g"))
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("PEXELS_API_KEY"))
        SourceCLIKit.expectNowhere("not-the-key-123", in: dir.file("g"), result)
    }
}
