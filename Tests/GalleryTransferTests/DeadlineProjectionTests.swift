import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// A body fast enough for the low-speed limit but too slow to arrive before the deadline ends when that
/// shows (after the low-speed window), not at the deadline.
@Suite struct DeadlineProjectionTests {
    let second: UInt64 = 1_000_000_000

    @Test func theProjectionStopsOnlyABodyThatCannotFinish() {
        let projection = DeadlineProjection(timeoutSeconds: 60, windowSeconds: 10)
        // 256 KB/s for 10 s of a 30 MB body: 117 s more, far past 60 s.
        let stream = projection.reason(now: 11 * second, start: 0, bodyStart: 1 * second, bodyBytes: 2_621_440, length: 31_457_280)
        #expect(stream == .cannotFinishInTime(bytesPerSecond: 262_144, bytesLeft: 28_835_840, secondsLeft: 49))
        // The same speed for 5 s only: not judged before the window.
        #expect(projection.reason(now: 6 * second, start: 0, bodyStart: 1 * second, bodyBytes: 1_310_720, length: 31_457_280) == nil)
        // 4 MB at 100 KB/s would end at 51 s: it goes on.
        #expect(projection.reason(now: 11 * second, start: 0, bodyStart: 1 * second, bodyBytes: 1_024_000, length: 4_096_000) == nil)
        // Ending at 70 s is within the quarter's grace (75 s); at 80 s it is not.
        #expect(projection.reason(now: 10 * second, start: 0, bodyStart: 0, bodyBytes: 1_000_000, length: 7_000_000) == nil)
        #expect(projection.reason(now: 10 * second, start: 0, bodyStart: 0, bodyBytes: 1_000_000, length: 8_000_000) != nil)
        // Without a timeout, or with the body already whole, nothing to judge.
        #expect(DeadlineProjection(timeoutSeconds: 0, windowSeconds: 10)
            .reason(now: 11 * second, start: 0, bodyStart: 1 * second, bodyBytes: 10, length: 31_457_280) == nil)
        #expect(projection.reason(now: 11 * second, start: 0, bodyStart: 1 * second, bodyBytes: 100, length: 100) == nil)
    }

    @Test func aSlowLargeBodyEndsAfterTheWindowNotAtTheDeadline() async throws {
        let server = try FaultServer()
        // 1.2 MB at 100 KB/s: 12 s, past the 6 s deadline, though far above the low-speed limit.
        server.route("/big.jpg") { _, _ in .file(Kit.jpeg(1_200_000), etag: "\"v1\"").trickle(bytesPerSecond: 100_000) }
        server.route("/small.jpg") { _, _ in .file(Kit.jpeg(150_000), etag: "\"v1\"").trickle(bytesPerSecond: 100_000) }
        let engine = Kit.engine {
            $0.lowSpeedWindow = 1
            $0.deadline = 6
            $0.endsBodiesThatCannotFinish = true
        }
        let dir = try TempDirectory()
        let error = try #require(await Kit.offPool { await Kit.failure(engine, DownloadRequest(url: server.url("/big.jpg"), destination: dir.file("big"))) })
        guard case .cannotFinishInTime(let speed, let left, _) = error.reason else {
            Issue.record("ended with \(error) rather than when its speed showed it could not finish")
            return
        }
        #expect(speed > 50_000 && speed < 150_000 && left > 600_000, "\(error)")
        #expect(error.attempts == 1, "not retried: another attempt has less time still")
        #expect(!error.isRetryable)
        // A body that can finish in time is left alone (1.5 s of 6).
        let result = try await engine.download(DownloadRequest(url: server.url("/small.jpg"), destination: dir.file("small")))
        #expect(result.metrics.attempts == 1)
    }

    @Test func aResumableDownloadReadsOnToTheDeadlineByDefault() async throws {
        let server = try FaultServer()
        server.route("/big.jpg") { _, _ in .file(Kit.jpeg(1_200_000), etag: "\"v1\"").trickle(bytesPerSecond: 100_000) }
        // The gallery's engine: what arrives until the deadline stays in the part file for the next run.
        let engine = Kit.engine {
            $0.lowSpeedWindow = 1
            $0.deadline = 4
            $0.retry.maxAttempts = 1
        }
        let dir = try TempDirectory()
        let error = try #require(await Kit.offPool { await Kit.failure(engine, DownloadRequest(url: server.url("/big.jpg"), destination: dir.file("big"))) })
        #expect(error.reason == .timedOut, "\(error)")
    }
}
