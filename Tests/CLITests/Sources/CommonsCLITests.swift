import Foundation
import GalleryTestSupport
import Testing

/// `fetch-gallery --source commons` end to end: the built binary against a local MediaWiki Action API
/// answering Commons' documented shapes (continue/iicontinue batches, extmetadata HTML and numbers,
/// maxlag, 429), real JPEGs served as the files.
@Suite struct CommonsCLITests {
    static let hostileAuthor = #"<a href="https://commons.wikimedia.org/wiki/User:Ann">Ann <script>alert(1)</script>&amp; Co</a>"#

    /// An author's `Artist` HTML with references, as Commons sends it.
    static let accentedAuthor = #"<a href="https://commons.wikimedia.org/wiki/User:Chlo%C3%A9">Chlo&eacute; &lt;Studio 9&gt; &ndash; &copy;&nbsp;2024</a>"#

    static func files() throws -> [ServicePhoto] {
        var files = try ServicePhoto.make(5)
        files[1].author = hostileAuthor
        files[3].author = accentedAuthor
        files[2].title = #"Dune <img src=x onerror=alert(2)> at dusk"#
        return files
    }

    @Test func categoryInBatchesWithIicontinueBuildsACreditedGallery() async throws {
        let files = try Self.files()
        let commons = try CommonsServer(files: files, splitImageinfo: true, svgCount: 1)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let args = ["--source", "commons", "--category", "Featured pictures of landscapes", "--api", commons.endpoint,
                    "--per-page", "2", "--pages", "10"]
        let result = try SourceCLIKit.run(args, out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        // 6 entries (5 JPEGs + 1 SVG) in batches of 2: 3 batches, each of two answers (iicontinue).
        let requests = commons.server.requests(path: "/w/api.php")
        #expect(requests.count == 6, "\(requests.map(\.target))")
        #expect(commons.iicontinueRequests.count == 3)
        for request in requests {
            let q = ServiceShapes.query(request)
            #expect(q["maxlag"] == "5" && q["gcmtitle"] == "Category:Featured pictures of landscapes")
            let agent = request.headers["User-Agent"] ?? ""
            #expect(agent.hasPrefix("fetch-gallery/") && agent.contains("+https://"), "User-Agent: \(agent)")
        }
        try SourceCLIKit.expectOriginals(out, files, sourceID: { String(5000 + Int($0.id)! - 1000) })
        let manifest = try SourceCLIKit.photosBySourceID(out)
        #expect(manifest.count == 5, "the SVG is skipped, not a photo: \(manifest.keys)")
        let ann = manifest["5001"]?["credit"] as? [String: String] ?? [:]
        #expect(ann["author"] == "Ann & Co")
        #expect(ann["author_url"] == "https://commons.wikimedia.org/wiki/User:Ann")
        #expect(ann["licence"] == "CC BY-SA 4.0" && ann["licence_url"] == "https://creativecommons.org/licenses/by-sa/4.0")
        #expect(ann["page_url"]?.hasPrefix("https://commons.wikimedia.org/wiki/File:Photo_1") == true)
        // Untrusted text never reaches a page as markup.
        for (path, data) in SourceCLIKit.files(under: out) where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            #expect(!html.contains("<script>alert") && !html.contains("<img src=x"), "\(path)")
        }
        let pages = SourceCLIKit.files(under: out + "/pages").filter { $0.key.contains("5001-") }
        let page = pages.values.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(page.contains(#"href="https://commons.wikimedia.org/wiki/User:Ann""#), "credit links the author")
        #expect(page.contains("Wikimedia Commons") && page.contains("CC BY-SA 4.0"))
        let index = String(decoding: FileManager.default.contents(atPath: out + "/index.html") ?? Data(), as: UTF8.self)
        #expect(index.contains(#"href="https://commons.wikimedia.org/wiki/User:Ann""#), "the index credits the author")
        // Character references in the author's HTML are characters in the credit, escaped once in the pages.
        let chloe = manifest["5003"]?["credit"] as? [String: String] ?? [:]
        #expect(chloe["author"] == "Chloé <Studio 9> – ©\u{A0}2024", "\(chloe)")
        let chloePage = SourceCLIKit.files(under: out + "/pages").first { $0.key.contains("5003-") }
            .map { String(decoding: $0.value, as: UTF8.self) } ?? ""
        for html in [chloePage, index] {
            #expect(html.contains("Chloé &lt;Studio 9&gt; – ©\u{A0}2024"), "\(html.prefix(3000))")
            #expect(!html.contains("&amp;eacute;") && !html.contains("&amp;ndash;") && !html.contains("&amp;copy;"))
        }

        // A re-run downloads nothing and asks the same batches again.
        let again = try SourceCLIKit.run(args, out: out)
        #expect(again.exitCode == 0, "stderr: \(again.stderrText)")
        #expect(SourceCLIKit.bytesDownloaded(again) == 0)
    }

    @Test func pagesCountsBatchesNotAnswers() async throws {
        let files = try Self.files()
        let commons = try CommonsServer(files: files, splitImageinfo: true)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try SourceCLIKit.run(["--source", "commons", "--category", "Landscapes", "--api", commons.endpoint,
                                           "--per-page", "2", "--pages", "1"], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(commons.server.requests(path: "/w/api.php").count == 2, "one batch took two answers")
        #expect(try GalleryCLIKit.manifestPhotos(out).count == 2, "both halves of the batch merged by pageid")
    }

    @Test func maxlagAndThrottleAreWaitedOutNotFailures() async throws {
        let files = try ServicePhoto.make(3)
        let commons = try CommonsServer(files: files, splitImageinfo: false, maxlagFirst: true, throttleOnce: true)
        let dir = try TempDirectory()
        let out = dir.file("g")
        let started = Date()
        let result = try SourceCLIKit.run(["--source", "commons", "--category", "Landscapes", "--api", commons.endpoint,
                                           "--per-page", "2"], out: out)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        #expect(Date().timeIntervalSince(started) >= 2, "waited Retry-After twice")
        #expect(result.stdoutText.contains("maxlag"), "the wait is reported as a JSON event")
        #expect(result.stderrText.contains("note: commons: waiting 1 s: maxlag"), "and said at once: \(result.stderrText)")
        try SourceCLIKit.expectOriginals(out, files, sourceID: { String(5000 + Int($0.id)! - 1000) })
    }

    @Test func missingCategoryIsAUsageError() async throws {
        let dir = try TempDirectory()
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["--source", "commons", "--out", dir.file("g")], timeout: 30)
        #expect(result.exitCode == 2)
        #expect(result.stderrText.contains("--category"))
    }

    @Test func anAPIErrorNamesTheServiceAndExitsThree() async throws {
        let server = try FaultServer()
        server.route("/w/api.php") { _, _ in
            ServiceShapes.answer(#"{"error":{"code":"invalidcategory","info":"The category name you entered is not valid."}}"#)
        }
        let dir = try TempDirectory()
        let result = try SourceCLIKit.run(["--source", "commons", "--category", "<bad>", "--api", server.url("/w/api.php")],
                                          out: dir.file("g"))
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("commons") && result.stderrText.contains("invalidcategory"))
    }
}
