import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The streamed writer gives the bytes the whole-value renderers give.
@Suite struct GalleryOutputTests {
    @Test func streamedManifestAndIndexEqualTheWholeRenderings() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for state in [GalleryWriterTests.hostileState(), GalleryState()] {
            let folder = TemporaryFolder()
            defer { folder.remove() }
            try GalleryWriter(folder: folder.path, source: "http://127.0.0.1:8080/\"quoted\"").write(state, generated: date)
            let whole = try GalleryManifest(state: state, source: "http://127.0.0.1:8080/\"quoted\"", generated: date).encoded()
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/gallery.json")) == whole)
            #expect(try folder.read("index.html") == IndexPage(title: "Gallery", state: state).render())
            // Its working files are gone.
            #expect(folder.files().allSatisfy { !$0.hasPrefix(".fetch-gallery/") }, "\(folder.files())")
        }
    }

    @Test func unchangedIndexIsNotRewritten() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let state = GalleryWriterTests.hostileState()
        let index = folder.path + "/index.html"
        try GalleryWriter(folder: folder.path, source: "s").write(state)
        // Set back a day: a rewrite, by rename (a new inode) or in place (a new time), cannot keep both.
        let dayAgo = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded())
        try FileManager.default.setAttributes([.modificationDate: dayAgo], ofItemAtPath: index)
        let inode = { () -> ino_t? in
            var info = stat()
            return stat(index, &info) == 0 ? info.st_ino : nil
        }
        let before = inode()
        try GalleryWriter(folder: folder.path, source: "s").write(state)
        #expect(before != nil && inode() == before, "index.html was replaced")
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date == dayAgo, "index.html was written")
    }

    /// Five finished photos and two failed, three cards to an index page.
    static func write(_ folder: String, photos ids: [Int], failed: [Int]) throws {
        let output = try GalleryOutput(folder: folder, title: "G", source: "s", generated: Date(),
                                       options: GalleryPageOptions(photosPerIndexPage: 3))
        for id in ids {
            var entry = GalleryMergeTests.entry(id, page: 1)
            if failed.contains(id) {
                entry.original = nil
                entry.failure = "download: HTTP 404"
            }
            try output.add(entry, comments: [])
        }
        try output.finish()
    }

    @Test func indexIsPagedAndPhotoPagesLinkTheirNeighbours() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try Self.write(folder.path, photos: [1, 2, 3, 4, 5, 6, 7], failed: [3, 6])
        #expect(folder.files().filter { $0.hasPrefix("index") } == ["index-2.html", "index-3.html", "index.html"])
        let first = try folder.read("index.html")
        #expect(first.contains("5 photos, 2 failed · page 1 of 3") && first.contains("href=\"index-2.html\""))
        #expect(first.contains("pages/001/1-photo-1.html") && first.contains("pages/004/4-photo-4.html") && !first.contains("pages/005/5-photo-5.html"))
        #expect(!first.contains("<h2>Failed</h2>"))
        let second = try folder.read("index-2.html")
        // Finished photos first (5), then the failed ones (3, 6) continue the pages.
        #expect(second.contains("pages/005/5-photo-5.html") && second.contains("pages/007/7-photo-7.html") && second.contains("<h2>Failed</h2>"))
        #expect(second.contains("href=\"index.html\"") && second.contains("href=\"index-3.html\""))
        #expect(try folder.read("index-3.html").components(separatedBy: "class=\"failed\"").count == 2)
        // Photo pages: neighbours among finished photos, and the index page that shows them.
        let four = try folder.read("pages/004/4-photo-4.html")
        #expect(four.contains("href=\"../../pages/002/2-photo-2.html\" rel=\"prev\"") && four.contains("href=\"../../pages/005/5-photo-5.html\" rel=\"next\""))
        #expect(four.contains("href=\"../../index.html#p4\""))
        #expect(try folder.read("pages/005/5-photo-5.html").contains("href=\"../../index-2.html#p5\""))
        #expect(try !folder.read("pages/001/1-photo-1.html").contains("rel=\"prev\""))
        #expect(try !folder.read("pages/007/7-photo-7.html").contains("rel=\"next\""))

        // A smaller gallery drops the index pages it no longer needs.
        try Self.write(folder.path, photos: [1, 2], failed: [])
        #expect(folder.files().filter { $0.hasPrefix("index") } == ["index.html"])
        #expect(try !folder.read("index.html").contains("page 1 of"))
    }
}
