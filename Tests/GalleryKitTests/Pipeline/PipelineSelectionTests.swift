import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// What the listing pages put in the gallery: duplicates once, NSFW only on request, a broken item
/// skipped without losing its page, and `total_pages` ending the run early.
@Suite struct PipelineSelectionTests {
    static let small = "png-suite/basn2c08.png"

    @Test func duplicatesAcrossPagesAreKeptOnce() async throws {
        let a = FakePhoto(id: 1, corpusFile: Self.small), b = FakePhoto(id: 2, corpusFile: Self.small)
        let c = FakePhoto(id: 3, corpusFile: Self.small)
        let api = try FakeAPI([[a, b], [b, c, a]])
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 2, sizes: [64]))
        #expect(summary.photosQueued == 3 && summary.photosOK == 3)
        #expect(try PipelineKit.manifest(dir.path).photos.map(\.id).sorted() == [1, 2, 3])
        // Each image fetched once.
        for photo in [a, b, c] { #expect(api.server.requests(path: photo.imagePath).count == 1) }
    }

    @Test(arguments: [false, true])
    func nsfwIsLeftOutUnlessAskedFor(include: Bool) async throws {
        var hidden = FakePhoto(id: 2, corpusFile: Self.small)
        hidden.nsfw = true
        let api = try FakeAPI([[FakePhoto(id: 1, corpusFile: Self.small), hidden]])
        let dir = try TempDirectory()
        var job = PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64])
        job.includeNSFW = include
        let summary = try await PipelineKit.run(job)
        let ids = try PipelineKit.manifest(dir.path).photos.map(\.id).sorted()
        #expect(ids == (include ? [1, 2] : [1]))
        #expect(summary.photosOK == ids.count)
        // Left out means never fetched, not fetched and hidden.
        #expect(api.server.requests(path: hidden.imagePath).count == (include ? 1 : 0))
        let index = try String(contentsOfFile: dir.path + "/index.html", encoding: .utf8)
        #expect(index.contains("2-photo-number-2") == include)
    }

    @Test func wrongTypedItemIsSkippedAndTheRestOfThePageKept() async throws {
        let api = try FakeAPI()
        let good = [FakePhoto(id: 1, corpusFile: Self.small), FakePhoto(id: 3, corpusFile: Self.small)]
        for photo in good { try api.serve(photo) }
        let broken = #"{"id":"two","name":["not","a","string"],"images":[{"size":2048,"url":"\#(api.base)/img/2.jpg"}]}"#
        api.setPages([[good[0].json(base: api.base), broken, good[1].json(base: api.base)]], totalPages: 1)
        let events = EventLog()
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 1, sizes: [64]),
                                                observers: [events])
        #expect(summary.photosOK == 2 && summary.photosFailed == 0 && summary.pagesFailed == 0)
        #expect(try PipelineKit.manifest(dir.path).photos.map(\.id).sorted() == [1, 3])
        let skipped = events.events.withLock { list in
            list.compactMap { if case .pageFetched(_, _, _, let s) = $0 { s } else { nil } }.joined()
        }
        #expect(skipped.count == 1 && skipped.first?.hasPrefix("item 1") == true, "\(skipped)")
    }

    @Test func totalPagesSmallerThanPagesStopsTheRun() async throws {
        let api = try FakeAPI([[FakePhoto(id: 1, corpusFile: Self.small)], [FakePhoto(id: 2, corpusFile: Self.small)]],
                              totalPages: 2)
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 5, sizes: [64]))
        #expect(summary.pagesFetched == 2 && summary.photosOK == 2)
        #expect(api.requestedPages == [1, 2])
    }
}
