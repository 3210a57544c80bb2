import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The gallery's store over the other kind of object store, a folder: the same adapter that writes to a
/// bucket publishes, checkpoints, resumes and materializes through `any ObjectStore`, nothing S3 in it.
@Suite struct ObjectGalleryStoreFolderTests {
    static func store(_ objects: any ObjectStore, folder: String) throws -> ObjectGalleryStore {
        try ObjectGalleryStore(objects: objects, workFolder: folder, inFlight: 4, checkpointInterval: nil)
    }

    @Test func aGalleryGoesIntoAFolderStoreAndAFreshWorkFolderResumesFromIt() async throws {
        let dir = try TempDirectory()
        let objects = FolderObjectStore(root: dir.file("published"))
        let first = try Self.store(objects, folder: dir.file("work-1"))
        try await first.prepare(journal: GalleryNaming.journalPath)
        let photo = "photos/001/1-a.jpg", thumb = "thumbs/256/001/1-a.jpg", page = "pages/001/1-a.html"
        let photoBytes = TestPhotos.patternBytes(70_000, seed: 5)
        try AtomicFile.write(photoBytes, to: first.folder + "/" + photo)
        try AtomicFile.write(Array("thumb".utf8), to: first.folder + "/" + thumb)
        try AtomicFile.write(Array("<p>".utf8), to: first.folder + "/" + page)
        try AtomicFile.write(Array("<html>".utf8), to: first.folder + "/index.html")
        first.publish(["index.html", photo, thumb, page])
        try AtomicFile.write(Array("{\"journal\":1}\n".utf8), to: first.folder + "/" + GalleryNaming.journalPath)
        try await first.checkpoint(journal: GalleryNaming.journalPath)
        try await first.flush()

        let stored = try await objects.list(prefix: "").map(\.key)
        #expect(stored == [".fetch-gallery/journal.jsonl", ".fetch-gallery/published.tsv", "index.html", page, photo, thumb], "\(stored)")
        #expect(try await objects.get(photo) == photoBytes)
        // Photo files leave the work folder once stored; the store answers for them.
        #expect(!FileManager.default.fileExists(atPath: first.folder + "/" + photo))
        #expect(first.size(of: photo) == 70_000 && first.uploaded.objects == 4)

        // Another copy of an original never replaces the stored one (ifAbsent).
        try AtomicFile.write(Array("other".utf8), to: first.folder + "/" + photo)
        first.publish(photo)
        try await first.flush()
        #expect(try await objects.get(photo) == photoBytes)

        let again = try Self.store(objects, folder: dir.file("work-2"))
        #expect(again.size(of: photo) == nil)
        try await again.prepare(journal: GalleryNaming.journalPath)
        #expect(again.size(of: photo) == 70_000)
        #expect(try dir.read("work-2/" + GalleryNaming.journalPath) == Array("{\"journal\":1}\n".utf8))
        #expect(try await again.materialize(photo))
        #expect(try dir.read("work-2/" + photo) == photoBytes)
    }
}
