import Foundation
import Testing
@testable import GallerySync

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

    /// A task that prefers the pool as its executor runs on the pool's threads, its child tasks too, and
    /// work it asks `run` for runs in place, on the same thread, with no hand-off; a task without the
    /// preference has its work handed to a pool thread. A partial task enqueued after the pool has
    /// stopped still runs.
    @Test func tasksThatPreferThePoolRunOnItsThreads() async throws {
        let pool = WorkerPool(threads: 2)
        defer { pool.shutdown() }
        let seen = try await Task(executorPreference: pool) { () async throws -> [String] in
            let own = NamedThread.currentName
            let inPlace = try await pool.run { NamedThread.currentName }
            let children = await withTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { NamedThread.currentName } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            return [own, inPlace] + children
        }.value
        #expect(seen[0].hasPrefix("fg-work-"), "\(seen)")
        #expect(seen[1] == seen[0], "run from a pool thread ran elsewhere: \(seen)")
        // In place, not queued: with one thread, work another task queued first runs after it.
        let single = WorkerPool(threads: 1)
        defer { single.shutdown() }
        let order = Locked<[String]>([])
        let queuedFirst = try await Task(executorPreference: single) { () async throws -> Task<Void, any Error> in
            let other = Task.detached { try await single.run { order.withLock { $0.append("queued") } } }
            // The only pool thread stays busy until the other task's work is queued (no timing assumed).
            while single.queuedCount == 0 { usleep(1_000) }
            try await single.run { order.withLock { $0.append("in place") } }
            return other
        }.value
        try await queuedFirst.value
        #expect(order.withLock { $0 } == ["in place", "queued"])
        #expect(seen.allSatisfy { $0.hasPrefix("fg-work-") }, "\(seen)")
        #expect(!NamedThread.currentName.hasPrefix("fg-work-"))
        let handed = try await pool.run { NamedThread.currentName }
        #expect(handed.hasPrefix("fg-work-"), "\(handed)")

        let stopped = WorkerPool(threads: 1)
        stopped.shutdown()
        let late = await Task(executorPreference: stopped) { NamedThread.currentName }.value
        #expect(late == "fg-work-late", "\(late)")
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
