import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A source read by any consumer as an async sequence, through a real engine against a local server,
/// and the client's rate-limit handling as a plan step or a test would meet it.
@Suite struct PhotoBatchesTests {
    static func engine() -> TransferEngine {
        var c = TransferConfiguration()
        c.retry = RetryPolicy(maxAttempts: 2, baseBackoff: 0.02, maxBackoff: 0.05, maxRetryAfter: 1)
        c.deadline = 20
        return TransferEngine(configuration: c)
    }

    @Test func openverseSearchAsAnAsyncSequenceEndsAtTheLastPage() async throws {
        let photos = try ServicePhoto.make(5) { "uuid-\($0)" }
        let server = try OpenverseServer(photos: photos)
        let engine = Self.engine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine)
        let source = OpenverseService(query: "x", base: URL(string: server.server.baseURL)!, perPage: 2)
        var seen: [String] = []
        var numbers: [Int] = []
        for try await (number, batch) in source.batches(client: client, limit: 10) {
            numbers.append(number)
            seen += batch.page.photos.compactMap(\.sourceID)
        }
        #expect(numbers == [1, 2, 3] && seen == photos.map(\.id))
    }

    @Test func aThrottledAnswerIsWaitedForWithTheDetailSeconds() async throws {
        let server = try OpenverseServer(photos: try ServicePhoto.make(2) { "u\($0)" }, throttleOnRequest: 1)
        let engine = Self.engine()
        defer { engine.shutdown() }
        let waits = WaitLog()
        let client = SourceClient(engine: engine, sleeper: { waits.add($0) })
        let batch = try await OpenverseService(query: "x", base: URL(string: server.server.baseURL)!)
            .batch(at: .page(1), client: client)
        #expect(batch.page.photos.count == 2)
        #expect(waits.all == [1], "the 429's detail said 1 second; the engine did not retry it itself")
        #expect(server.server.requests(path: "/v1/images/").count == 2)
    }

    @Test func aSpentMinuteBudgetIsWaitedOutBeforeTheNextRequest() async throws {
        let server = try FaultServer()
        server.route("/v1/images/") { request, _ in
            let page = ServiceShapes.query(request)["page"] ?? "1"
            return ServiceShapes.answer(
                #"{"result_count":4,"page_count":2,"page_size":2,"page":\#(page),"results":[]}"#,
                headers: ["X-RateLimit-Available-anon_burst": page == "1" ? "0" : "5", "X-RateLimit-Available-anon_sustained": "100"])
        }
        let engine = Self.engine()
        defer { engine.shutdown() }
        let waits = WaitLog()
        let client = SourceClient(engine: engine, sleeper: { waits.add($0) })
        let source = OpenverseService(query: "x", base: URL(string: server.baseURL)!, perPage: 2)
        _ = try await source.batch(at: .page(1), client: client)
        #expect(waits.all.isEmpty)
        _ = try await source.batch(at: .page(2), client: client)
        #expect(waits.all.count == 1 && (55...60).contains(waits.all[0]), "about a minute: \(waits.all)")
        _ = try await source.batch(at: .page(2), client: client)
        #expect(waits.all.count == 1, "the budget was back")
    }

    @Test func aWaitLongerThanAllowedStopsTheSourceNamingIt() async throws {
        let server = try FaultServer()
        server.route("/v1/images/") { _, _ in
            ServiceShapes.answer(#"{"detail":"Request was throttled. Expected available in 86000 seconds."}"#, status: 429)
        }
        let engine = Self.engine()
        defer { engine.shutdown() }
        let client = SourceClient(engine: engine, sleeper: { _ in Issue.record("must not wait a day") })
        await #expect {
            _ = try await OpenverseService(query: "x", base: URL(string: server.baseURL)!).batch(at: .page(1), client: client)
        } throws: { error in
            guard case SourceError.rateLimited(let service, let message) = error else { return false }
            return service == "openverse" && message.contains("86000 s") && message.contains("run the same command again")
        }
    }
}

final class WaitLog: Sendable {
    private let waits = Locked<[Double]>([])
    func add(_ seconds: Double) { waits.withLock { $0.append(seconds) } }
    var all: [Double] { waits.withLock { $0 } }
}
