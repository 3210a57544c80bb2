import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryTransfer

/// Many transfers at once: limits hold, connections are reused, every file is byte-exact.
@Suite struct EngineConcurrencyTests {
    final class Counter: TransferObserver {
        let state = Locked((active: 0, peak: 0, progressEvents: 0, finished: 0))
        func transferDidStart(id: TransferID, url: String) {
            state.withLock { $0.active += 1; $0.peak = max($0.peak, $0.active) }
        }
        func transferDidProgress(_ progress: TransferProgress) { state.withLock { $0.progressEvents += 1 } }
        func transferDidFinish(_ finish: TransferFinish) { state.withLock { $0.active -= 1; $0.finished += 1 } }
    }

    @Test func perHostLimitIsObservedByTheServer() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(30_000)
        server.route("/slow") { _, _ in .file(body).trickle(bytesPerSecond: 100_000) }
        let dir = try TempDirectory()
        let engine = Kit.engine { $0.maxConcurrentPerHost = 3; $0.maxConcurrentTransfers = 16 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<12 {
                group.addTask {
                    _ = try await engine.download(DownloadRequest(url: server.url("/slow?i=\(i)"), destination: dir.file("\(i)")))
                }
            }
            try await group.waitForAll()
        }
        // Each response takes ~0.3 s; with 3 at a time, no 0.15 s window may see more than 3 arrivals.
        let arrivals = server.requests(path: "/slow").map(\.arrival).sorted()
        #expect(arrivals.count == 12)
        let crowd = arrivals.map { a in arrivals.filter { $0 >= a && $0.timeIntervalSince(a) < 0.15 }.count }.max() ?? 0
        #expect(crowd <= 3)
        // Kept-alive connections: never more than the per-host limit were opened.
        #expect(server.connectionCount <= 3)
        #expect(engine.peakConcurrentTransfers == 3)
    }

    @Test func manyConcurrentDownloadsAreByteExact() async throws {
        let server = try FaultServer()
        let bodies = (0..<40).map { Kit.jpeg(20_000 + $0 * 997, seed: UInt64($0 + 1)) }
        for (i, b) in bodies.enumerated() { server.route("/\(i).jpg") { _, _ in .file(b, etag: "\"\(i)\"") } }
        let dir = try TempDirectory()
        let counter = Counter()
        let aggregate = AggregateProgress()
        let engine = Kit.engine { $0.observers = [counter, aggregate]; $0.maxConcurrentPerHost = 8 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in bodies.indices {
                group.addTask {
                    _ = try await engine.download(DownloadRequest(url: server.url("/\(i).jpg"), destination: dir.file("\(i).jpg"),
                                                                  expectImage: true))
                }
            }
            try await group.waitForAll()
        }
        for (i, b) in bodies.enumerated() { #expect(Kit.read(dir.file("\(i).jpg")) == b) }
        let c = counter.state.withLock { $0 }
        #expect(c.finished == 40 && c.active == 0 && c.peak <= 16)
        #expect(c.progressEvents >= 40)
        let snap = aggregate.snapshot
        #expect(snap.succeeded == 40 && snap.failed == 0)
        #expect(snap.bytesReceived == Int64(bodies.reduce(0) { $0 + $1.count }))
        #expect(server.connectionCount <= 8)
    }

    @Test func queuedTransfersDoNotBurnTheirDeadline() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(25_000)
        server.route("/slow") { _, _ in .file(body).trickle(bytesPerSecond: 50_000) }
        let dir = try TempDirectory()
        // One at a time, 6 transfers of ~0.5 s each: the last waits ~2.5 s, more than its 1.5 s deadline.
        let engine = Kit.engine { $0.maxConcurrentTransfers = 1; $0.deadline = 1.5 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<6 {
                group.addTask {
                    _ = try await engine.download(DownloadRequest(url: server.url("/slow?\(i)"), destination: dir.file("\(i)")))
                }
            }
            try await group.waitForAll()
        }
        for i in 0..<6 { #expect(Kit.read(dir.file("\(i)")) == body) }
    }
}
