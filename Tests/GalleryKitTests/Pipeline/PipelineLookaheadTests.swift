import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// The feed never runs more than `lookahead` photos ahead of the finished ones, so memory stays flat
/// however long the listing is. Checked from the event order, which is causal: a photo's permit is
/// given back only after its `photoFinished` / `photoFailed` event, and the feed announces
/// `photoQueued` only after taking a permit.
@Suite struct PipelineLookaheadTests {
    @Test(arguments: [1, 3])
    func feedStaysWithinLookahead(lookahead: Int) async throws {
        let photos = (1...12).map { FakePhoto(id: $0, corpusFile: "png-suite/basn2c08.png") }
        let api = try FakeAPI([Array(photos[0..<6]), Array(photos[6...])])
        for photo in photos {
            let bytes = try photo.bytes
            // Slow enough that the feed always gets ahead and has to wait.
            api.server.route(photo.imagePath) { _, _ in
                .file(bytes, etag: "\"\(photo.id)\"", contentType: "image/png").stallBeforeHeaders(seconds: 0.05)
            }
        }
        let dir = try TempDirectory()
        var job = PipelineKit.job(api, folder: dir.path, pages: 2, sizes: [32])
        job.lookahead = lookahead
        let events = EventLog()
        let summary = try await PipelineKit.run(job, observers: [events])
        #expect(summary.photosOK == photos.count)

        var inFlight = 0, peak = 0
        for event in events.events.withLock({ $0 }) {
            switch event {
            case .photoQueued: inFlight += 1
            case .photoFinished, .photoFailed: inFlight -= 1
            default: continue
            }
            peak = max(peak, inFlight)
            #expect(inFlight <= lookahead, "\(inFlight) photos in flight with lookahead \(lookahead)")
        }
        #expect(peak == lookahead)
        for photo in photos { #expect(api.server.requests(path: photo.imagePath).count == 1) }
    }
}

extension PipelineLookaheadTests {
    /// Once page 1 gives the total, the next pages are asked for together (a re-run of a finished gallery
    /// waits on the pages alone), and never past the total.
    @Test func pagesAfterTheFirstAreFetchedTogetherWithinTheTotal() async throws {
        let photos = (1...5).map { FakePhoto(id: $0, corpusFile: "png-suite/basn2c08.png") }
        let api = try FakeAPI(photos.map { [$0] })
        let base = api.base
        api.server.route("/photos") { request, _ in
            let n = FakeAPI.pageNumber(request.query)
            let items = (1...5).contains(n) ? photos[n - 1].json(base: base) : ""
            return .status(200, headers: ["Content-Type": "application/json"],
                           text: "{\"current_page\":\(n),\"total_pages\":5,\"photos\":[\(items)]}")
                .stallBeforeHeaders(seconds: 0.4)
        }
        let dir = try TempDirectory()
        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: dir.path, pages: 10, sizes: [32]))
        #expect(summary.photosOK == 5)
        #expect(api.requestedPages.sorted() == [1, 2, 3, 4, 5])
        let arrivals = Dictionary(api.server.requests(path: "/photos").map { (FakeAPI.pageNumber($0.query), $0.arrival) },
                                  uniquingKeysWith: { first, _ in first })
        let spread = try #require(arrivals[4]).timeIntervalSince(try #require(arrivals[2]))
        #expect(spread < 0.3, "pages 2 and 4 were asked \(spread) s apart: one after another, not together")
    }
}
