import Foundation
import GalleryTestSupport
import Testing

/// The main command (`fetch-gallery run`, the default) as a user runs it: the built binary
/// against a real HTTP API on 127.0.0.1, checked by exit status, output and files.
@Suite struct GalleryCommandTests {
    static let fast = ["--workers", "2", "--sizes", "64,128"]

    @Test func twoPagesWithJSONProgress() async throws {
        let api = try GalleryCLIKit(pages: 2, perPage: 4)
        let dir = try TempDirectory()
        let out = dir.file("gallery")
        let result = try ProcessRunner.run(GalleryCLIKit.binary,
            ["--api", api.server.baseURL, "--pages", "2", "--out", out, "--progress", "json"] + Self.fast, timeout: 60)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        let events = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        #expect(events.count == lines.count && !lines.isEmpty, "not all stdout lines are JSON: \(result.stdoutText)")
        #expect(events.filter { $0["event"] as? String == "page" }.count == 2)
        let finished = events.filter { $0["event"] as? String == "photo" && $0["ok"] as? Bool == true }
        #expect(finished.count == api.allIDs.count)
        #expect(events.last?["event"] as? String == "done")
        let photos = try GalleryCLIKit.manifestPhotos(out)
        #expect(photos.count == api.allIDs.count)
        for photo in photos {
            #expect(photo["status"] as? String == "ok")
            let original = photo["original"] as? String ?? "-"
            let id = photo["id"] as? Int ?? 0
            #expect(FileManager.default.contents(atPath: out + "/" + original) == Data(try Corpus.bytes(api.files[id]!)))
            let thumbs = photo["thumbnails"] as? [String: String] ?? [:]
            #expect(Set(thumbs.keys) == ["64", "128"])
            for path in thumbs.values { #expect(FileManager.default.fileExists(atPath: out + "/" + path)) }
        }
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
    }

    @Test func failingPhotoExitsOneAndNamesIt() async throws {
        let api = try GalleryCLIKit(pages: 1, perPage: 3)
        api.server.route(api.imagePath(2)) { _, _ in .status(404, text: "gone") }
        let dir = try TempDirectory()
        let out = dir.file("g")
        let result = try ProcessRunner.run(GalleryCLIKit.binary,
            ["--api", api.server.baseURL, "--pages", "1", "--out", out, "--progress", "none"] + Self.fast, timeout: 60)
        #expect(result.exitCode == 1, "stderr: \(result.stderrText)")
        let errors = result.stderrText.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1, "\(result.stderrText)")
        #expect(errors.first?.contains("Photo 2") == true && errors.first?.contains(api.imagePath(2)) == true)
        let statuses = try GalleryCLIKit.manifestPhotos(out).map { $0["status"] as? String ?? "" }
        #expect(statuses.sorted() == ["failed", "ok", "ok"])
    }

    @Test func unreachableAPIExitsThree() async throws {
        let closed = try FaultServer()
        let base = closed.baseURL
        closed.stop()
        let dir = try TempDirectory()
        let result = try ProcessRunner.run(GalleryCLIKit.binary,
            ["--api", base, "--out", dir.file("g"), "--progress", "none", "--deadline", "5"], timeout: 60)
        #expect(result.exitCode == 3, "stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("source could not be read"))
    }

    @Test func apiAndURLsTogetherIsAUsageError() async throws {
        let dir = try TempDirectory()
        let list = try dir.write(Array("http://127.0.0.1:1/a.jpg\n".utf8), to: "urls.txt")
        let result = try ProcessRunner.run(GalleryCLIKit.binary,
            ["--api", "http://127.0.0.1:1", "--urls", list, "--out", dir.file("g")], timeout: 30)
        #expect(result.exitCode == 2)
        #expect(result.stderrText.contains("--api or --urls"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("g")))
    }

    @Test func urlListBuildsAGallery() async throws {
        let api = try GalleryCLIKit(pages: 1, perPage: 3)
        let dir = try TempDirectory()
        let urls = api.allIDs.map { api.server.baseURL + api.imagePath($0) }
        let list = try dir.write(Array((urls.joined(separator: "\n") + "\n").utf8), to: "urls.txt")
        let out = dir.file("g")
        let result = try ProcessRunner.run(GalleryCLIKit.binary,
            ["--urls", list, "--out", out, "--progress", "plain"] + Self.fast, timeout: 60)
        #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
        let photos = try GalleryCLIKit.manifestPhotos(out)
        #expect(photos.count == 3 && photos.allSatisfy { $0["status"] as? String == "ok" })
        let sources = Set(photos.compactMap { $0["source_url"] as? String })
        #expect(sources == Set(urls))
        // The list was read, not the API.
        #expect(api.server.requests(path: "/photos").isEmpty)
    }

    /// WebP and GIF originals (served from `.jpg` URLs) keep their bytes under their real extension;
    /// `--format webp` makes WebP thumbnails, and a re-run with another format remakes them.
    @Test func webpAndGIFOriginalsAndWebPThumbnails() async throws {
        let files = ["webp/lossy.webp", "gif/photo.gif", "libjpeg-turbo/testorig.jpg", "webp/lossless-alpha.webp"]
        let api = try GalleryCLIKit(pages: 1, perPage: 4, corpusFiles: files)
        let out = try TempDirectory().file("gallery")
        func run(_ format: String) throws -> [[String: Any]] {
            let result = try ProcessRunner.run(GalleryCLIKit.binary,
                ["--api", api.server.baseURL, "--pages", "1", "--out", out, "--format", format, "--progress", "none",
                 "--workers", "2", "--sizes", "64"], timeout: 60)
            #expect(result.exitCode == 0, "stderr: \(result.stderrText)")
            return try GalleryCLIKit.manifestPhotos(out)
        }
        let photos = try run("webp")
        #expect(photos.count == 4)
        for photo in photos {
            let id = photo["id"] as? Int ?? 0
            let original = photo["original"] as? String ?? "-"
            let source = api.files[id]!
            let wanted = source.hasSuffix(".jpg") ? "jpg" : String(source.split(separator: ".").last!)
            #expect(original.hasSuffix("." + wanted), "\(original) for \(source)")
            #expect(FileManager.default.contents(atPath: out + "/" + original) == Data(try Corpus.bytes(source)))
            let thumb = (photo["thumbnails"] as? [String: String])?["64"] ?? "-"
            #expect(thumb.hasSuffix(".webp"), "\(thumb)")
            let bytes = [UInt8](FileManager.default.contents(atPath: out + "/" + thumb) ?? Data())
            #expect(bytes.count > 12 && Array(bytes[8..<12]) == Array("WEBP".utf8))
        }
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains(".webp\""))

        let again = try run("jpeg")
        for photo in again {
            let thumb = (photo["thumbnails"] as? [String: String])?["64"] ?? "-"
            #expect(thumb.hasSuffix(".jpg") && FileManager.default.fileExists(atPath: out + "/" + thumb), "\(thumb)")
        }
        // Nothing downloaded again for either re-format.
        for id in api.allIDs { #expect(api.server.requests(path: api.imagePath(id)).count == 1) }
    }
}
