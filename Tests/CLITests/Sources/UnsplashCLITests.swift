import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery --source unsplash` end to end against a local server answering Unsplash's documented
/// shapes: the key as `Authorization: Client-ID`, `download_location` called once per download,
/// credit to photographer and Unsplash, the key nowhere in what the run leaves behind.
@Suite struct UnsplashCLITests {
    static let key = "uNsPlAsH-access-key-0123456789abcdef"

    static func photos(_ count: Int) throws -> [ServicePhoto] {
        var photos = try ServicePhoto.make(count) { ["Dwu85P9SOIk", "G15G-Any-D0", "_p0v9fK6pjM", "lUaaKCUANVI", "zZPeoLxLRyM", "aBcDeFgHiJk"][$0 % 6] + ($0 >= 6 ? "\($0)" : "") }
        if count > 1 { photos[1].author = #"Eve "<script>alert(1)</script>""# }
        return photos
    }

    @Test func editorialFeedCallsDownloadLocationOncePerDownload() async throws {
        let photos = try Self.photos(5)
        let unsplash = try UnsplashServer(photos: photos, key: Self.key)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--source", "unsplash", "--api", unsplash.server.baseURL, "--per-page", "2", "--pages", "5"]
        let result = try SourceCLIKit.run(args, out: out, environment: ["UNSPLASH_ACCESS_KEY": Self.key])
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(unsplash.server.requests(path: "/photos").count == 3, "2 + 2 + 1: the short page is the last")
        try SourceCLIKit.expectOriginals(out, photos, sourceID: \.id)
        for photo in photos { #expect(unsplash.downloadCalls(photo) == 1, "download_location of \(photo.id)") }
        let manifest = try SourceCLIKit.photosBySourceID(out)
        let credit = manifest[photos[0].id]?["credit"] as? [String: String] ?? [:]
        #expect(credit["service"] == "Unsplash" && credit["licence"] == "Unsplash License")
        #expect(credit["author_url"]?.contains("utm_source=fetch-gallery&utm_medium=referral") == true)
        #expect(credit["page_url"]?.hasPrefix("https://unsplash.com/photos/photo-0-") == true, "links.html uses the slug")
        let pages = SourceCLIKit.files(under: out + "/pages").values.map { String(decoding: $0, as: UTF8.self) }
        #expect(pages.contains { $0.contains("Photo by ") && $0.contains(">Unsplash<") })
        #expect(!pages.contains { $0.contains("<script>alert") })
        SourceCLIKit.expectNowhere(Self.key, in: out, result)

        // A re-run downloads nothing, so it reports no download either.
        let again = try SourceCLIKit.run(args, out: out, environment: ["UNSPLASH_ACCESS_KEY": Self.key])
        #expect(again.exitCode == 0 && SourceCLIKit.bytesDownloaded(again) == 0, "stderr: \(again.stderrText)")
        for photo in photos { #expect(unsplash.downloadCalls(photo) == 1) }
        SourceCLIKit.expectNowhere(Self.key, in: out, again)
    }

    @Test func searchReadsTotalPages() async throws {
        let photos = try Self.photos(4)
        let unsplash = try UnsplashServer(photos: photos, key: Self.key)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "unsplash", "--query", "sea & sky", "--api", unsplash.server.baseURL,
                                           "--per-page", "2", "--key", Self.key], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let searches = unsplash.server.requests(path: "/search/photos")
        #expect(searches.count == 2 && ServiceShapes.query(searches[0])["query"] == "sea & sky")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 4)
        SourceCLIKit.expectNowhere(Self.key, in: out, result)
    }

    @Test func refusedKeyExitsThreeWithoutShowingIt() async throws {
        let unsplash = try UnsplashServer(photos: try Self.photos(2), key: Self.key)
        let dir = try TempDirectory()
        let wrong = "wrong-key-9876543210"
        let result = try SourceCLIKit.run(["--source", "unsplash", "--api", unsplash.server.baseURL], out: dir.file("g"),
                                          environment: ["UNSPLASH_ACCESS_KEY": wrong])
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("UNSPLASH_ACCESS_KEY") && result.stderrText.contains("401"))
        SourceCLIKit.expectNowhere(wrong, in: dir.file("g"), result)
    }

    @Test func missingKeyIsAUsageError() async throws {
        let dir = try TempDirectory()
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["--source", "unsplash", "--out", dir.file("g")],
                                           environment: ["UNSPLASH_ACCESS_KEY": ""], timeout: 30)
        #expect(result.exitCode == 2)
        #expect(result.stderrText.contains("UNSPLASH_ACCESS_KEY"))
    }

    @Test func spentHourlyBudgetStopsTheSourceKeepingTheGallery() async throws {
        let photos = try Self.photos(6)
        // Page 1 uses the budget of 1 and says so (X-Ratelimit-Remaining: 0): the next listing page (or a
        // download report, whichever the scheduling sends first) would be refused, so the source stops
        // at once. (A budget of 3 raced: under load all three pages could be listed before any report.)
        let unsplash = try UnsplashServer(photos: photos, key: Self.key, budget: 1)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let started = Date()
        let result = try SourceCLIKit.run(["--source", "unsplash", "--api", unsplash.server.baseURL, "--per-page", "2",
                                           "--pages", "3"], out: out,
                                          environment: ["UNSPLASH_ACCESS_KEY": Self.key])
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("unsplash") && result.stderrText.contains("X-Ratelimit-Remaining"), "\(result.stderrText)")
        #expect(Date().timeIntervalSince(started) < 30, "an hour's wait is not waited: the source stops at once")
        let kept = try GalleryCLIKit.manifestPhotos(out)
        #expect(kept.count >= 2 && kept.prefix(2).allSatisfy { $0["status"] as? String == "ok" }, "\(kept)")
        SourceCLIKit.expectNowhere(Self.key, in: out, result)
    }
}
