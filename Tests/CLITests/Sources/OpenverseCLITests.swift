import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery --source openverse` end to end against a local server answering Openverse's
/// documented shapes: UUID ids, null sizes, mature items, the 20-page depth cap, rate-limit headers
/// and the 429 whose wait is only in its `detail`.
@Suite struct OpenverseCLITests {
    static func photos(_ count: Int) throws -> [ServicePhoto] {
        var photos = try ServicePhoto.make(count) { index in
            String(format: "%08x-ef46-4544-a0c1-63c63f56e2%02x", 0x4bc4_3a04 + index, index)
        }
        if count > 2 { photos[2].mature = true }
        if count > 1 { photos[1].title = #"Lighthouse "</title><script>alert(1)</script>"#; photos[1].author = "<b>Bob</b> & Co" }
        return photos
    }

    @Test func searchSkipsMatureItemsAndKeepsUUIDs() async throws {
        let photos = try Self.photos(5)
        let openverse = try OpenverseServer(photos: photos)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--source", "openverse", "--query", "lighthouse", "--api", openverse.server.baseURL, "--per-page", "2", "--pages", "10"]
        let result = try SourceCLIKit.run(args, out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let requests = openverse.server.requests(path: "/v1/images/")
        #expect(requests.count == 2, "4 safe items, 2 a page: \(requests.map(\.target))")
        for request in requests {
            let q = ServiceShapes.query(request)
            #expect(q["q"] == "lighthouse" && q["page_size"] == "2" && q["mature"] == nil)
        }
        let safe = photos.filter { !$0.mature }
        try SourceCLIKit.expectOriginals(out, safe, sourceID: \.id)
        let manifest = try SourceCLIKit.photosBySourceID(out)
        #expect(manifest.count == 4 && manifest[photos[2].id] == nil, "the mature item is left out")
        let credit = manifest[photos[1].id]?["credit"] as? [String: String] ?? [:]
        #expect(credit["licence"] == "CC BY-SA 2.0" && credit["author"] == "<b>Bob</b> & Co")
        #expect(credit["page_url"]?.hasPrefix("https://www.flickr.com/photos/someone/") == true)
        // Null width/height/filetype: the size comes from the decoded original.
        #expect(manifest[photos[1].id]?["width"] as? Int == 227)
        // Files are named by the hashed id and fanned out by its last three digits.
        for (id, entry) in manifest {
            let number = entry["id"] as? Int ?? 0
            let bucket = String(format: "%03d", number % 1000)
            #expect((entry["original"] as? String ?? "").hasPrefix("photos/\(bucket)/\(number)-"), "\(id)")
        }
        for (path, data) in SourceCLIKit.files(under: out) where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            #expect(!html.contains("<script>alert") && !html.contains("<b>Bob"), "\(path)")
        }
        let again = try SourceCLIKit.run(args, out: out)
        #expect(again.exitCode == 0 && SourceCLIKit.bytesDownloaded(again) == 0, "stderr: \(again.stderrText)")
    }

    @Test func includeNSFWAsksForMatureResults() async throws {
        let photos = try Self.photos(3)
        let openverse = try OpenverseServer(photos: photos)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "openverse", "--query", "x", "--api", openverse.server.baseURL,
                                           "--include-nsfw"], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(ServiceShapes.query(openverse.server.requests(path: "/v1/images/")[0])["mature"] == "true")
        #expect(try SourceCLIKit.photosBySourceID(out)[photos[2].id] != nil)
    }

    @Test func matureItemsAreLeftOutEvenWhenTheServerSendsThem() async throws {
        let photos = try Self.photos(3)
        let openverse = try OpenverseServer(photos: photos, leaksMature: true)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "openverse", "--query", "x", "--api", openverse.server.baseURL], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let manifest = try SourceCLIKit.photosBySourceID(out)
        #expect(manifest.count == 2 && manifest[photos[2].id] == nil, "\(manifest.keys)")
        #expect(openverse.server.bodyBytesSent(path: ServiceShapes.imagePath(photos[2])) == 0, "never downloaded")
    }

    @Test func stopsAtTheTwentiethPage() async throws {
        let photos = try ServicePhoto.make(23) { "uuid-\($0)" }
        let openverse = try OpenverseServer(photos: photos)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "openverse", "--query", "x", "--api", openverse.server.baseURL,
                                           "--per-page", "1", "--pages", "30"], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(openverse.server.requests(path: "/v1/images/").count == 20, "never asks past page 20 (a 400 for anonymous clients)")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 20)
    }

    @Test func throttledListingIsRetriedAfterTheDetailWait() async throws {
        let photos = try Self.photos(4)
        let openverse = try OpenverseServer(photos: photos, throttleOnRequest: 2)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let started = Date()
        let result = try SourceCLIKit.run(["--source", "openverse", "--query", "x", "--api", openverse.server.baseURL,
                                           "--per-page", "2"], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(Date().timeIntervalSince(started) >= 1, "waited the second the detail named")
        let pages = openverse.server.requests(path: "/v1/images/").map { ServiceShapes.query($0)["page"] ?? "" }
        #expect(pages == ["1", "2", "2"], "page 2 asked again after the 429")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 3)
    }

    @Test func spentDailyBudgetStopsTheSourceKeepingTheGallery() async throws {
        let photos = try ServicePhoto.make(6) { "uuid-\($0)" }
        let openverse = try OpenverseServer(photos: photos, sustainedLeft: 1)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "openverse", "--query", "x", "--api", openverse.server.baseURL,
                                           "--per-page", "2", "--pages", "3"], out: out)
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("openverse") && result.stderrText.contains("anon_sustained"), "\(result.stderrText)")
        #expect(openverse.server.requests(path: "/v1/images/").count == 1, "no request once the budget is spent")
        let kept = try GalleryCLIKit.manifestPhotos(out)
        #expect(kept.count == 2 && kept.allSatisfy { $0["status"] as? String == "ok" }, "page 1's photos are kept")
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
    }
}
