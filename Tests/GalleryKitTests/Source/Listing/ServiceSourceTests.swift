import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A service's listing through ``ServiceSource``: batches until the cursor ends or the page limit, a failed
/// batch ends the listing (the first one: the source could not be read), a spent rate limit stops the source.
@Suite struct ServiceSourceTests {
    @Test func batchesUntilTheCursorEndsOrThePageLimit() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine)
        let service = CannedService(batches: [[CannedService.photo(1), CannedService.photo(2)], [CannedService.photo(2), CannedService.photo(3)],
                                              [CannedService.photo(4)]])
        let steps = await ListingKit.steps(ServiceSource(service: service), shard: nil, client: client)
        #expect(ListingKit.pages(steps).map(\.number) == [1, 2, 3])
        // Photo 2 listed twice: the first one seen wins.
        #expect(ListingKit.pages(steps).map(\.added) == [2, 1, 1] && ListingKit.photos(steps).map(\.photo.id) == [1, 2, 3, 4])
        let limited = await ListingKit.steps(ServiceSource(service: service), shard: nil, client: client, pages: 2)
        #expect(ListingKit.pages(limited).map(\.number) == [1, 2])
    }

    @Test func aFailedBatchEndsTheListing() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine)
        let batches = [[CannedService.photo(1)], [CannedService.photo(2)], [CannedService.photo(3)]]
        let limited = CannedService(batches: batches, failAt: [2: .rateLimited(service: "canned", message: "spent")])
        let stopped = await ListingKit.steps(ServiceSource(service: limited), shard: nil, client: client)
        #expect(ListingKit.photos(stopped).map(\.photo.id) == [1])
        let reason = "source: canned: rate limit reached: spent"
        #expect(ListingKit.failures(stopped) == [ListingFailure(page: 2, reason: reason, isSourceError: false, stopsSource: true)])
        let broken = CannedService(batches: batches, failAt: [1: .unusable(service: "canned", reason: "no")])
        let failed = await ListingKit.steps(ServiceSource(service: broken), shard: nil, client: client)
        #expect(failed.count == 1)
        #expect(ListingKit.failures(failed) == [ListingFailure(page: 1, reason: "source: canned: no", isSourceError: true)])
    }

    @Test func aPhotoWithNoWebImageIsReportedUnusable() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        let local = Photo(id: 9, name: "local", images: [PhotoImage(size: 2048, url: "file:///etc/passwd")])
        let steps = await ListingKit.steps(ServiceSource(service: CannedService(batches: [[CannedService.photo(1), local]])),
                                           shard: nil, client: SourceClient(engine: engine))
        #expect(ListingKit.pages(steps).map { $0.unusable.map(\.id) } == [[9]])
        #expect(ListingKit.photos(steps).map(\.photo.id) == [1])
    }
}
