import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct GalleryWriterTests {
    /// A state with one finished photo per hostile string, one failed and one unfinished.
    static func hostileState() -> GalleryState {
        var state = GalleryState()
        for (offset, hostile) in Hostile.strings.enumerated() {
            let id = 100 + offset
            let name = hostile
            state.apply(.seen(PhotoMetadata(id: id, name: name, photographer: hostile, rating: 88.25,
                                            description: hostile, sourceURL: "javascript:alert(1)", width: 4000, height: 3000)))
            state.apply(.original(id: id, file: OriginalFile(path: GalleryNaming.originalPath(id: id, name: name, extension: "jpg"),
                                                             sha256: String(repeating: "0", count: 64), bytes: 10, width: 4000, height: 3000)))
            for size in [320, 640] {
                state.apply(.thumbnail(id: id, file: ThumbnailFile(size: size, path: GalleryNaming.thumbnailPath(id: id, name: name, size: size))))
            }
        }
        state.apply(.seen(PhotoMetadata(id: 1, name: "<script>alert('failed')</script>", sourceURL: "https://127.0.0.1/1.jpg")))
        state.apply(.failed(id: 1, reason: "<script>alert('reason')</script>"))
        state.apply(.seen(PhotoMetadata(id: 2, name: "never finished")))
        return state
    }

    @Test func hostileInputsNeverReachTheOutputAsMarkup() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let state = Self.hostileState()
        let comments = [100: [Comment(id: 1, body: "<script>alert(2)</script>", user: PhotoUser(username: "\"><script>"))]]
        try GalleryWriter(folder: folder.path, title: "<script>title</script>", source: "http://127.0.0.1:8080")
            .write(state, comments: comments)
        let files = folder.files()
        #expect(files.contains("index.html") && files.contains("gallery.json"))
        let pages = files.filter { $0.hasPrefix("pages/") }
        #expect(pages.count == Hostile.strings.count)
        for file in files where file.hasSuffix(".html") {
            let html = try folder.read(file)
            // The one script is the gallery's own viewer.js, by src; nothing else opens a script.
            #expect(Self.withoutViewerScript(html).count == html.count - Self.viewerScriptTag(file).count, "\(file)")
            #expect(!Self.withoutViewerScript(html).lowercased().contains("<script"), "\(file)")
            #expect(!html.contains("javascript:"), "\(file)")
            #expect(!html.contains("\u{0}"), "\(file)")
            // Every real tag is one we write, and none carries an event handler.
            let tags = Self.tags(in: html)
            #expect(tags.contains { $0.name == "img" && $0.attributes.contains("src") }, "\(file)")
            for tag in tags {
                #expect(Self.allowedTags.contains(tag.name), "\(file): <\(tag.name)>")
                #expect(!tag.attributes.contains { $0.hasPrefix("on") }, "\(file): \(tag.attributes)")
            }
        }
        #expect(files.allSatisfy { $0.split(separator: "/").allSatisfy { $0.utf8.count <= 255 && $0 != ".." } })
    }

    static let allowedTags: Set<String> = [
        "!doctype", "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "ul", "ol", "li",
        "figure", "figcaption", "a", "img", "span", "bdi", "strong", "div", "nav", "section", "dl", "dt", "dd",
        "time", "script",
    ]

    /// The viewer's script tag as a page at `file` (a path in the gallery) has it.
    static func viewerScriptTag(_ file: String) -> String {
        let depth = file.split(separator: "/").count - 1
        return "<script src=\"" + String(repeating: "../", count: depth) + "viewer.js\" defer=\"\"></script>"
    }

    /// `html` with the viewer's script tag taken out.
    static func withoutViewerScript(_ html: String) -> String {
        html.replacing(/<script src="(\.\.\/)*viewer\.js" defer=""><\/script>/, with: "")
    }

    /// The opening tags of `html` with their attribute names: a deliberately simple scan that
    /// is right for our output because every `<` in text is escaped.
    static func tags(in html: String) -> [(name: String, attributes: [String])] {
        var result: [(String, [String])] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let inside = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if inside.hasPrefix("/") { continue }
            if inside.hasPrefix("style") {  // skip the CSS, it has no tags
                if let end = rest.range(of: "</style>") { rest = rest[end.upperBound...] }
            }
            // Drop quoted values so text inside them cannot look like an attribute.
            var unquoted = ""
            var quoted = false
            for character in inside {
                if character == "\"" { quoted.toggle(); continue }
                if !quoted { unquoted.append(character) }
            }
            let words = unquoted.split(whereSeparator: \.isWhitespace)
            let name = words.first.map { String($0).lowercased() } ?? ""
            let attributes = words.dropFirst().map { String($0.prefix { $0 != "=" }).lowercased() }
            result.append((name, attributes))
        }
        return result
    }

    @Test func indexHasLazyThumbnailsWithSrcsetSizesAndCaptions() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var state = GalleryState()
        state.apply(.seen(PhotoMetadata(id: 12345, name: "Sunset over the Bay", photographer: "Ann", rating: 97.44,
                                        description: "Golden hour\nat the pier", sourceURL: "https://127.0.0.1/12345.jpg", width: 4000, height: 3000)))
        state.apply(.original(id: 12345, file: OriginalFile(path: "photos/12345-sunset-over-the-bay.jpg", sha256: "ab", bytes: 5)))
        state.apply(.thumbnail(id: 12345, file: ThumbnailFile(size: 320, path: "thumbs/320/12345-sunset-over-the-bay.jpg", width: 320, height: 240)))
        state.apply(.thumbnail(id: 12345, file: ThumbnailFile(size: 640, path: "thumbs/640/12345-sunset-over-the-bay.jpg")))
        try GalleryWriter(folder: folder.path, source: "test").write(state, comments: [12345: [Comment(id: 1, body: "Wow", user: PhotoUser(username: "bob"))]])

        let index = try folder.read("index.html")
        #expect(index.hasPrefix("<!DOCTYPE html>"))
        #expect(index.contains("<img src=\"thumbs/320/12345-sunset-over-the-bay.jpg\" srcset=\"thumbs/320/12345-sunset-over-the-bay.jpg 320w, thumbs/640/12345-sunset-over-the-bay.jpg 640w\""))
        #expect(index.contains("loading=\"eager\"") && index.contains("width=\"320\" height=\"240\""))
        #expect(index.contains("href=\"pages/345/12345-sunset-over-the-bay.html\""))
        #expect(index.contains("Sunset over the Bay") && index.contains("Ann") && index.contains("97.4"))
        #expect(index.contains("display:grid") && !Self.withoutViewerScript(index).contains("<script"))

        let page = try folder.read("pages/345/12345-sunset-over-the-bay.html")
        #expect(page.contains("src=\"../../photos/12345-sunset-over-the-bay.jpg\""))
        #expect(page.contains("width=\"4000\" height=\"3000\""))
        #expect(page.contains("href=\"../../index.html#p12345\""))
        #expect(page.contains("href=\"https://127.0.0.1/12345.jpg\""))
        #expect(page.contains("Golden hour\nat the pier") && page.contains("Wow") && page.contains("bob"))
    }

    @Test func derivedThumbnailSizeKeepsTheAspectRatio() {
        let size = GalleryDocument.dimensions(of: ThumbnailFile(size: 640, path: "t"), original: (3000, 4000))
        #expect(size.map { [$0.0, $0.1] } == [480, 640])
        #expect(GalleryDocument.dimensions(of: ThumbnailFile(size: 640, path: "t"), original: (nil, 10)) == nil)
    }

    @Test func manifestListsEveryPhotoInFirstSeenOrder() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let state = Self.hostileState()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try GalleryWriter(folder: folder.path, source: "http://127.0.0.1:8080").write(state, generated: date)
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/gallery.json"))
        let manifest = try JSONDecoder().decode(GalleryManifest.self, from: data)
        #expect(manifest.generated == "2023-11-14T22:13:20Z")
        #expect(manifest.source == "http://127.0.0.1:8080")
        #expect(manifest.photos.map(\.id) == state.order)
        let first = try #require(manifest.photos.first)
        #expect(first.status == .ok && first.error == nil && first.sha256?.count == 64)
        #expect(first.thumbnails.keys.sorted() == ["320", "640"] && first.width == 4000)
        #expect(first.name == Hostile.strings[0])
        let failed = try #require(manifest.photos.first { $0.id == 1 })
        #expect(failed.status == .failed && failed.error == "<script>alert('reason')</script>" && failed.original == nil)
        let unfinished = try #require(manifest.photos.first { $0.id == 2 })
        #expect(unfinished.status == .failed && unfinished.error == GalleryManifest.incompleteReason)
        // Keys in the JSON are snake_case and sorted; the same state gives the same bytes.
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"source_url\""))
        try GalleryWriter(folder: folder.path, source: "http://127.0.0.1:8080").write(state, generated: date)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/gallery.json")) == data)
    }
}

extension GalleryWriterTests {
    /// A photo renamed on the server gets a new page name; the old page goes, files not ours stay.
    @Test func aRenamedPhotosOldPageIsRemoved() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        func state(named name: String) -> GalleryState {
            var s = GalleryState()
            s.apply(.seen(PhotoMetadata(id: 7, name: name)))
            s.apply(.original(id: 7, file: OriginalFile(path: GalleryNaming.originalPath(id: 7, name: "x", extension: "jpg"),
                                                       sha256: String(repeating: "0", count: 64), bytes: 10, width: 4, height: 3)))
            s.apply(.thumbnail(id: 7, file: ThumbnailFile(size: 256, path: GalleryNaming.thumbnailPath(id: 7, name: "x", size: 256))))
            s.apply(.seen(PhotoMetadata(id: 8, name: "other")))
            return s
        }
        let writer = GalleryWriter(folder: folder.path, source: "test")
        try writer.write(state(named: "Old name"))
        let old = GalleryNaming.photoPagePath(id: 7, name: "Old name")
        #expect(folder.files().contains(old))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.path + "/pages/notes.html"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.path + "/pages/7.txt"))

        try writer.write(state(named: "New name"))
        let pages = folder.files().filter { $0.hasPrefix("pages/") }.sorted()
        #expect(pages == ["pages/007/7-new-name.html", "pages/7.txt", "pages/notes.html"].sorted(), "\(pages)")
        #expect(!folder.files().contains(old))
    }

    @Test func onlyOurPageNamesAreRecognised() {
        #expect(GalleryWriter.isPageName("7-new-name.html"))
        #expect(GalleryWriter.isPageName("n12-x.html"))
        #expect(!GalleryWriter.isPageName("notes.html"))
        #expect(!GalleryWriter.isPageName("7.html"))
        #expect(!GalleryWriter.isPageName("7-x.htm"))
        #expect(!GalleryWriter.isPageName("-x.html"))
    }
}
