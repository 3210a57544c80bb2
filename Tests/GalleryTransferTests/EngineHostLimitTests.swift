import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryTransfer

/// `TransferConfiguration.hostLimits`: a host with a cap of its own (one's own store) next to hosts
/// that keep the default per-host cap, on one engine.
@Suite struct EngineHostLimitTests {
    /// Requests being answered at once by a server, counted in its handlers (one thread per connection).
    final class Gauge: Sendable {
        let state = Locked((now: 0, peak: 0))
        func route(_ server: FaultServer, _ path: String, seconds: Double, body: [UInt8]) {
            server.route(path) { [self] _, _ in
                state.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                usleep(UInt32(seconds * 1e6))
                state.withLock { $0.now -= 1 }
                return .file(body)
            }
        }
        var peak: Int { state.withLock { $0.peak } }
    }

    final class Finished: TransferObserver {
        let urls = Locked<[String]>([])
        func transferDidFinish(_ finish: TransferFinish) { urls.withLock { $0.append(finish.url) } }
    }

    @Test func anOverriddenHostGetsItsOwnCapOutsideTheTotalAndTheOthersKeepTheDefault() async throws {
        let photos = try FaultServer(), store = try FaultServer()
        let photoGauge = Gauge(), storeGauge = Gauge()
        photoGauge.route(photos, "/p", seconds: 0.2, body: Kit.jpeg(2000))
        storeGauge.route(store, "/s", seconds: 0.2, body: Kit.bytes(500))
        let finished = Finished()
        let engine = Kit.engine {
            $0.maxConcurrentTransfers = 4
            $0.maxConcurrentPerHost = 3
            $0.requestsPerSecondPerHost = 20
            $0.rateExemptsLoopback = false
            $0.observers = [finished]
            $0.hostLimits[TransferConfiguration.hostKey(of: store.baseURL)] = HostLimit(maxConcurrent: 8)
        }
        let started = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<12 {
                group.addTask { _ = try await engine.request(HTTPRequest(url: photos.url("/p?\(i)"))).data() }
            }
            for i in 0..<24 {
                group.addTask { _ = try await engine.request(HTTPRequest(method: .get, url: store.url("/s?\(i)"))).data() }
            }
            try await group.waitForAll()
        }
        let elapsed = Date().timeIntervalSince(started)
        // The photo host keeps the default cap; the store gets its own 8, not cut by the total of 4.
        #expect(photoGauge.peak == 3, "photo host peak \(photoGauge.peak)")
        #expect(storeGauge.peak == 8, "store peak \(storeGauge.peak)")
        #expect(engine.peakConcurrentTransfers <= 3, "the store's transfers were counted in the total")
        // The store is left out of the rate, the photo host is not. At 20/s every request would come 50 ms
        // after the one before; out of it, the store's requests come in waves of 8 at once, so most gaps
        // between arrivals are near zero (a gap, not the whole spread: a loaded machine stretches the waves).
        let storeArrivals = store.requests(path: "/s").map(\.arrival).sorted()
        #expect(storeArrivals.count == 24)
        let gaps = zip(storeArrivals.dropFirst(), storeArrivals).map { $0.timeIntervalSince($1) }.sorted()
        #expect(gaps.count == 23 && gaps[gaps.count / 2] < 0.025, "store requests' gaps: \(gaps)")
        let photoArrivals = photos.requests(path: "/p").map(\.arrival).sorted()
        #expect(photoArrivals.last!.timeIntervalSince(photoArrivals.first!) >= 11.0 / 20 - 0.05)
        // The observers heard of the photos only.
        let heard = finished.urls.withLock { $0 }
        #expect(heard.count == 12 && heard.allSatisfy { $0.hasPrefix(photos.baseURL) })
        #expect(elapsed < 30)
    }

    @Test func withoutOverridesEveryHostKeepsTheDefaultCapAndTheTotal() async throws {
        let one = try FaultServer(), two = try FaultServer()
        let gaugeOne = Gauge(), gaugeTwo = Gauge()
        gaugeOne.route(one, "/a", seconds: 0.2, body: Kit.bytes(500))
        gaugeTwo.route(two, "/b", seconds: 0.2, body: Kit.bytes(500))
        let engine = Kit.engine { $0.maxConcurrentTransfers = 4; $0.maxConcurrentPerHost = 3 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<9 {
                group.addTask { _ = try await engine.request(HTTPRequest(url: one.url("/a?\(i)"))).data() }
                group.addTask { _ = try await engine.request(HTTPRequest(url: two.url("/b?\(i)"))).data() }
            }
            try await group.waitForAll()
        }
        #expect(gaugeOne.peak <= 3 && gaugeTwo.peak <= 3)
        #expect(engine.peakConcurrentTransfers == 4)
        #expect(gaugeOne.peak + gaugeTwo.peak >= 4)
    }
}
