import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A gallery that began this run empty (no `photos/`, a journal with no record) cannot hold an original
/// this run did not write: a new photo's place is not looked for on disk. Any other folder is looked in.
@Suite struct PipelineStartedEmptyTests {
    static func workspace(_ folder: String, store: (any GalleryStore)? = nil) throws -> RunWorkspace {
        let job = GalleryJob(source: .urlList(text: "http://127.0.0.1:9/a.jpg\n", name: "list.txt"), folder: folder)
        return try RunWorkspace(job: job, store: store ?? LocalFolderStore(folder: folder))
    }

    @Test("empty only with no photos folder and no journal record")
    func startedEmptyOnlyWhenNothingIsThere() throws {
        let dir = try TempDirectory()
        do {
            let fresh = try Self.workspace(dir.file("fresh"))
            #expect(fresh.startedEmpty)
        }
        // The same folder again: photos/ now exists.
        #expect(try !Self.workspace(dir.file("fresh")).startedEmpty)
        // photos/ gone but the journal has a record: what it says may still be elsewhere (a shard, a store).
        do {
            let journal = try Journal(folder: dir.file("journaled"))
            try journal.append(.seen(PhotoMetadata(id: 1, name: "a")))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("journaled/photos")))
        #expect(try !Self.workspace(dir.file("journaled")).startedEmpty)
        // A store that may hold what its work folder lacks (a bucket) never counts, however empty the folder.
        let objects = try ObjectGalleryStore(objects: FolderObjectStore(root: dir.file("published")), workFolder: dir.file("work"),
                                             inFlight: 1, checkpointInterval: nil)
        #expect(try !Self.workspace(dir.file("work"), store: objects).startedEmpty)
    }

    @Test("an original already on disk is found and not fetched again; a fresh gallery fetches every photo")
    func originalsOnDiskAreStillFound() async throws {
        let photos = [FakePhoto(id: 1), FakePhoto(id: 2)]
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
        let first = try await PipelineKit.run(job)
        #expect(first.photosOK == 2 && first.bytesDownloaded > 0)
        // Without its journal, the folder still holds the originals: they are found, not fetched.
        try FileManager.default.removeItem(atPath: dir.path + "/.fetch-gallery")
        let second = try await PipelineKit.run(job)
        #expect(second.photosOK == 2 && second.bytesDownloaded == 0)
    }
}
