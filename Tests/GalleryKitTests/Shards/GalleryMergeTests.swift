import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The merge on hand-written parts: listing order across shards, duplicates, and what it refuses.
@Suite struct GalleryMergeTests {
    /// A finished photo listed on `page`.
    static func entry(_ id: Int, page: Int, name: String? = nil) -> GalleryState.Entry {
        let name = name ?? "Photo \(id)"
        var entry = GalleryState.Entry(metadata: PhotoMetadata(id: id, name: name, sourceURL: "http://h/\(id).jpg", page: page))
        entry.original = OriginalFile(path: GalleryNaming.originalPath(id: id, name: name, extension: "jpg"),
                                      sha256: String(repeating: "a", count: 64), bytes: 10, width: 40, height: 30,
                                      exif: id % 2 == 1 ? ExifMetadata(make: "Canon", model: "EOS <R5>", fNumber: 2.8, latitude: 1, longitude: 2) : nil)
        entry.thumbnails[64] = ThumbnailFile(size: 64, path: GalleryNaming.thumbnailPath(id: id, name: name, size: 64), width: 64, height: 48)
        return entry
    }

    /// Writes shard `index` of `count`'s part from `entries` (in the order given).
    static func writePart(_ folder: String, _ index: Int, of count: Int, _ entries: [GalleryState.Entry]) throws {
        let layout = ShardLayout(folder: folder, shard: try ShardSpec(index: index, count: count))
        let journal = try Journal(folder: folder, journalPath: layout.journalPath)
        for entry in entries {
            try journal.append(.seen(entry.metadata))
            if let original = entry.original { try journal.append(.original(id: entry.metadata.id, file: original)) }
            for thumbnail in entry.thumbnails.values { try journal.append(.thumbnail(id: entry.metadata.id, file: thumbnail)) }
            if let failure = entry.failure { try journal.append(.failed(id: entry.metadata.id, reason: failure)) }
        }
        try ShardPartWriter(layout: layout, source: "http://api").write(journal, comments: { _ in nil }, run: GalleryRunSummary(), started: Date())
    }

    @Test func mergeKeepsListingOrderAndWritesEachPhotoOnce() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // Pages 1, 3 on shard 0; 2, 4 on shard 1. Photo 5 is listed on pages 2 and 3: page 2 wins.
        try Self.writePart(folder.path, 0, of: 2, [Self.entry(1, page: 1), Self.entry(2, page: 1),
                                                   Self.entry(5, page: 3, name: "later listing"), Self.entry(6, page: 3)])
        var failed = Self.entry(4, page: 2)
        failed.original = nil
        failed.failure = "download: http://h/4.jpg: HTTP 404"
        try Self.writePart(folder.path, 1, of: 2, [Self.entry(3, page: 2), failed, Self.entry(5, page: 2), Self.entry(7, page: 4)])
        let report = try GalleryMerge(folder: folder.path).run()
        #expect(report.isComplete && report.shards == 2 && report.duplicates == 1)
        #expect(report.photosOK == 6 && report.photosFailed == 1)
        let manifest = try JSONDecoder().decode(GalleryManifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder.path + "/gallery.json")))
        #expect(manifest.photos.map(\.id) == [1, 2, 3, 4, 5, 7, 6].sorted { a, b in
            [1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 7: 4, 6: 3][a]! < [1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 7: 4, 6: 3][b]!
        })
        #expect(manifest.photos.map(\.id) == [1, 2, 3, 4, 5, 6, 7])
        #expect(manifest.photos.first { $0.id == 5 }?.name == "Photo 5")
        // EXIF travels through the parts; the location stays out without --show-location.
        #expect(manifest.photos.first { $0.id == 1 }?.exif == ExifMetadata(make: "Canon", model: "EOS <R5>", fNumber: 2.8))
        #expect(manifest.photos.first { $0.id == 2 }?.exif == nil)
        #expect(manifest.source == "http://api")
        let summary = try JSONDecoder().decode(ShardSummary.self, from: Data(contentsOf: URL(fileURLWithPath: folder.path + "/shards/1-of-2.summary.json")))
        #expect(summary.failuresByReason == ["download: HTTP 404": 1] && summary.photos == 4 && summary.bytes == 30)

        // The same gallery as one writer given the photos in listing order.
        let one = TemporaryFolder()
        defer { one.remove() }
        var state = GalleryState()
        for entry in [Self.entry(1, page: 1), Self.entry(2, page: 1), Self.entry(3, page: 2), failed, Self.entry(5, page: 2),
                      Self.entry(6, page: 3), Self.entry(7, page: 4)] {
            state.apply(.seen(entry.metadata))
            if let original = entry.original { state.apply(.original(id: entry.metadata.id, file: original)) }
            for thumbnail in entry.thumbnails.values { state.apply(.thumbnail(id: entry.metadata.id, file: thumbnail)) }
            if let failure = entry.failure { state.apply(.failed(id: entry.metadata.id, reason: failure)) }
        }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        try GalleryWriter(folder: one.path, source: "http://api").write(state, generated: date)
        _ = try GalleryMerge(folder: folder.path).run(generated: date)
        for file in ["gallery.json", "index.html"] + one.files().filter({ $0.hasPrefix("pages/") }) {
            #expect(try one.read(file) == folder.read(file), "\(file)")
        }
    }

    @Test func partAndSummaryThatDisagreeAreRefused() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try Self.writePart(folder.path, 0, of: 1, [Self.entry(1, page: 1), Self.entry(2, page: 1)])
        let path = folder.path + "/shards/0-of-1.photos.jsonl"
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        try (lines[0] + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ShardError.self) { try GalleryMerge(folder: folder.path).run() }
        try "{not json\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try GalleryMerge(folder: folder.path).run()
            Issue.record("a broken part was merged")
        } catch {
            #expect(error.description.contains(path) && error.description.contains("line 1"), "\(error)")
        }
    }

    @Test func partsOfDifferentCountsAreRefused() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try Self.writePart(folder.path, 0, of: 2, [Self.entry(1, page: 1)])
        try Self.writePart(folder.path, 0, of: 3, [Self.entry(1, page: 1)])
        #expect(throws: ShardError.mixedCounts(folder: folder.path, counts: [2, 3])) { try GalleryMerge(folder: folder.path).run() }
        // Given the count, the merge takes that job's parts and names the missing one.
        let report = try GalleryMerge(folder: folder.path, shards: 2).run()
        #expect(report.missing == [1] && !report.isComplete && report.photosOK == 1)
    }
}
