import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The folder store is the folder: publishing changes nothing, sizes are the files', removal deletes.
@Suite struct LocalFolderStoreTests {
    @Test func answersFromTheFolderAndPublishingLeavesItAlone() async throws {
        let dir = try TempDirectory()
        let store = LocalFolderStore(folder: dir.path)
        try AtomicFile.write(Array("abc".utf8), to: dir.path + "/photos/001/1-a.jpg")
        #expect(store.size(of: "photos/001/1-a.jpg") == 3)
        #expect(store.size(of: "photos/001/2-b.jpg") == nil)
        #expect(store.size(of: "photos/001") == nil)  // a folder is not a file
        store.publish("photos/001/1-a.jpg")
        try await store.flush()
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/photos/001/1-a.jpg")) == Data("abc".utf8))
        #expect(try await store.materialize("photos/001/1-a.jpg"))
        #expect(try await !store.materialize("photos/001/2-b.jpg"))
        store.remove("photos/001/1-a.jpg")
        #expect(store.size(of: "photos/001/1-a.jpg") == nil)
    }

    @Test func kindsTypesAndCachePolicies() {
        #expect(GalleryFileKind(path: "photos/001/1-a.jpg") == .original)
        #expect(GalleryFileKind(path: "thumbs/256/001/1-a.webp") == .thumbnail)
        #expect(GalleryFileKind(path: "pages/001/1-a.html") == .page)
        #expect(GalleryFileKind(path: "index.html") == .page)
        #expect(GalleryFileKind(path: "shards/0-of-4.summary.json") == .state)
        #expect(GalleryFileKind(path: ".fetch-gallery/journal.jsonl") == .state)
        #expect(GalleryFileKind.original.isImmutable && GalleryFileKind.thumbnail.isImmutable && !GalleryFileKind.page.isImmutable)
        #expect(GalleryFileKind.contentType(of: "thumbs/256/001/1-a.AVIF") == "image/avif")
        #expect(GalleryFileKind.contentType(of: "index.html") == "text/html; charset=utf-8")
        #expect(GalleryFileKind.contentType(of: "viewer.js") == "text/javascript; charset=utf-8")
        #expect(GalleryFileKind.contentType(of: "gallery.json") == "application/json")
        #expect(GalleryFileKind.page.cacheControl == "no-cache")
    }
}
