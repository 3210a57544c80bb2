import Foundation
import GallerySync
import Testing
@testable import GalleryKit

/// The decode/scale pool: named threads, a parallel map spread over them, and taken jobs let go at once.
@Suite struct WorkerPoolTests {
    @Test func threadsAreNamedAndMapUsesThemAll() {
        let pool = WorkerPool(threads: 3)
        defer { pool.shutdown() }
        // Each item records the thread it ran on; slow enough that every thread takes some.
        let names = pool.map(60) { _ -> String in
            usleep(2_000)
            return NamedThread.currentName
        }
        #expect(names.count == 60)
        #expect(Set(names) == ["fg-work-0", "fg-work-1", "fg-work-2"], "\(Set(names))")
        #expect(pool.map(1_000) { $0 * $0 } == (0..<1_000).map { $0 * $0 })
    }

    @Test func aStoppedPoolStillMapsOnTheCallingThread() {
        let pool = WorkerPool(threads: 2)
        pool.shutdown()
        #expect(pool.map(5) { $0 + 1 } == [1, 2, 3, 4, 5])
    }

    /// What a job captured is released once the job has run, not when the queue is next trimmed: a run's
    /// journal (and its lock) must not outlive the run because a pool job held it.
    @Test func aRunJobReleasesWhatItCaptured() async throws {
        final class Token: Sendable {}
        let pool = WorkerPool(threads: 1)
        defer { pool.shutdown() }
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            _ = try await pool.run { _ = token; return 1 }
        }
        #expect(weakToken == nil)
    }
}
