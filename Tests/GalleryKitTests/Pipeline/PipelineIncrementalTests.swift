import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A second run over the same folder does only what is missing.
@Suite struct PipelineIncrementalTests {
    static func photos() -> [FakePhoto] {
        ["libjpeg-turbo/testorig.jpg", "png-suite/basn2c08.png", "derived/testorig-progressive.jpg"]
            .enumerated().map { FakePhoto(id: 10 + $0.offset, corpusFile: $0.element) }
    }

    static func imageBytes(_ api: FakeAPI, _ photos: [FakePhoto]) -> Int {
        photos.map { api.server.bodyBytesSent(path: $0.imagePath) }.reduce(0, +)
    }

    @Test func secondRunDownloadsNothingAndMakesNothing() async throws {
        let photos = Self.photos()
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let job = PipelineKit.job(api, folder: dir.path, pages: 1)
        let first = try await PipelineKit.run(job)
        #expect(first.photosOK == 3 && first.thumbnailsMade == 6)
        let sent = Self.imageBytes(api, photos)
        #expect(try sent == photos.map { try $0.bytes.count }.reduce(0, +))
        let thumbTimes = PipelineKit.modificationTimes(dir.path, under: "thumbs")

        let second = try await PipelineKit.run(job)
        #expect(second.photosOK == 3 && second.photosFailed == 0)
        #expect(second.thumbnailsMade == 0 && second.bytesDownloaded == 0)
        #expect(Self.imageBytes(api, photos) == sent, "the second run fetched image bytes")
        #expect(PipelineKit.modificationTimes(dir.path, under: "thumbs") == thumbTimes)
        #expect(try PipelineKit.manifest(dir.path).photos.allSatisfy { $0.status == .ok })
    }

    @Test func deletedThumbnailIsMadeAgainAlone() async throws {
        let photos = Self.photos()
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let job = PipelineKit.job(api, folder: dir.path, pages: 1)
        _ = try await PipelineKit.run(job)
        let sent = Self.imageBytes(api, photos)
        let victim = try #require(try PipelineKit.manifest(dir.path).photos[1].thumbnails["128"])
        let before = try #require(PipelineKit.read(dir.path + "/" + victim))
        try FileManager.default.removeItem(atPath: dir.path + "/" + victim)

        let second = try await PipelineKit.run(job)
        #expect(second.thumbnailsMade == 1 && second.bytesDownloaded == 0)
        #expect(Self.imageBytes(api, photos) == sent)
        #expect(PipelineKit.read(dir.path + "/" + victim) == before, "remade thumbnail differs")
    }

    @Test func addedSizeMakesOnlyThatSize() async throws {
        let photos = Self.photos()
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        _ = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [128]))
        let sent = Self.imageBytes(api, photos)
        let oldTimes = PipelineKit.modificationTimes(dir.path, under: "thumbs/128")

        let second = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [128, 64]))
        #expect(second.thumbnailsMade == photos.count && second.bytesDownloaded == 0)
        #expect(Self.imageBytes(api, photos) == sent)
        #expect(PipelineKit.modificationTimes(dir.path, under: "thumbs/128") == oldTimes)
        let manifest = try PipelineKit.manifest(dir.path)
        for entry in manifest.photos {
            #expect(Set(entry.thumbnails.keys) == ["64", "128"])
            let info = try ImageDecoder.probe(fileAt: dir.path + "/" + entry.thumbnails["64"]!)
            #expect(max(info.width, info.height) <= 64)
        }
    }

    /// Moves a gallery's files back to the layout before the fan-out (`photos/ID-slug.EXT`,
    /// `thumbs/SIZE/ID-slug.EXT`, `pages/ID-slug.html`), journal included.
    static func makeLegacy(_ folder: String, _ photos: [FakePhoto]) throws {
        let manifest = try PipelineKit.manifest(folder)
        var journal = try String(contentsOfFile: folder + "/.fetch-gallery/journal.jsonl", encoding: .utf8)
        for entry in manifest.photos {
            let bucket = "/" + GalleryNaming.bucket(id: entry.id) + "/"
            for path in [entry.original!] + entry.thumbnails.values {
                try FileManager.default.moveItem(atPath: folder + "/" + path,
                                                 toPath: folder + "/" + path.replacingOccurrences(of: bucket, with: "/"))
            }
            journal = journal.replacingOccurrences(of: bucket + "\(entry.id)-", with: "/\(entry.id)-")
            let page = GalleryNaming.photoPagePath(id: entry.id, name: entry.name)
            try FileManager.default.moveItem(atPath: folder + "/" + page, toPath: folder + "/" + page.replacingOccurrences(of: bucket, with: "/"))
        }
        try journal.write(toFile: folder + "/.fetch-gallery/journal.jsonl", atomically: true, encoding: .utf8)
    }

    @Test func galleryInTheLayoutBeforeTheFanOutIsReadWhereItIs() async throws {
        let photos = Self.photos()
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let job = PipelineKit.job(api, folder: dir.path, pages: 1)
        _ = try await PipelineKit.run(job)
        try Self.makeLegacy(dir.path, photos)
        let sent = Self.imageBytes(api, photos)

        // With its journal: nothing fetched, nothing made, the files stay where they are.
        let second = try await PipelineKit.run(job)
        #expect(second.photosOK == 3 && second.bytesDownloaded == 0 && second.thumbnailsMade == 0)
        #expect(Self.imageBytes(api, photos) == sent)
        let manifest = try PipelineKit.manifest(dir.path)
        for entry in manifest.photos {
            #expect(entry.original?.hasPrefix("photos/\(entry.id)-") == true, "\(entry.original ?? "-")")
            #expect(FileManager.default.fileExists(atPath: dir.path + "/" + GalleryNaming.photoPagePath(id: entry.id, name: entry.name)))
        }
        // Photo pages are derived: written in the new layout, the old ones removed.
        #expect(PipelineKit.files(dir.path + "/pages").allSatisfy { $0.contains("/") }, "\(PipelineKit.files(dir.path + "/pages"))")

        // Without its journal: the originals are found where they are; only thumbnails are made again.
        try FileManager.default.removeItem(atPath: dir.path + "/.fetch-gallery")
        let third = try await PipelineKit.run(job)
        #expect(third.photosOK == 3 && third.bytesDownloaded == 0 && third.thumbnailsMade == 6)
        #expect(Self.imageBytes(api, photos) == sent)
    }

    /// A shard's workspace withdraws its summary as it opens, and a stopped shard writes no part or summary:
    /// until a run of it ends whole, the shard is not done (its journal resumes it).
    @Test func aStoppedShardIsNotDoneUntilARunOfItEnds() async throws {
        let api = try FakeAPI([[FakePhoto(id: 1), FakePhoto(id: 2)]])
        let dir = try TempDirectory()
        var job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
        job.shard = try ShardSpec(index: 0, count: 2)
        let layout = ShardLayout(folder: dir.path, shard: job.shard!)
        let summary = dir.path + "/" + layout.summaryPath, part = dir.path + "/" + layout.photosPath
        #expect(try await PipelineKit.run(job).photosOK == 2)
        #expect(FileManager.default.fileExists(atPath: summary))
        try FileManager.default.removeItem(atPath: part)
        let engine = PipelineKit.engine()
        defer { engine.shutdown() }
        let stopped = GalleryRun(job: job, engine: engine)
        stopped.requestStop()
        #expect(try await stopped.run().interrupted)
        #expect(!FileManager.default.fileExists(atPath: summary), "the summary is withdrawn")
        #expect(!FileManager.default.fileExists(atPath: part), "a stopped shard writes no part")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/" + layout.journalPath))
        #expect(try await PipelineKit.run(job).photosOK == 2)
        #expect(FileManager.default.fileExists(atPath: summary) && FileManager.default.fileExists(atPath: part))
    }
}
