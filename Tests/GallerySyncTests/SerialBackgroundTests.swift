import Foundation
import GallerySync
import Testing

/// `SerialBackground` runs its jobs in order, off the caller's thread, holds the caller back at its backlog, and
/// `wait()` returns only after every job handed.
@Suite struct SerialBackgroundTests {
    @Test func jobsRunInOrderAndWaitSeesThemAll() {
        let background = SerialBackground(label: "test.serial", backlog: 4)
        let seen = Locked([Int]())
        for i in 0..<1_000 {
            background.async {
                if i % 100 == 0 { usleep(1_000) }
                seen.withLock { $0.append(i) }
            }
        }
        background.wait()
        #expect(seen.withLock { $0 } == Array(0..<1_000))
    }

    @Test func aJobRunsOffTheCallersThread() {
        let background = SerialBackground(label: "test.serial", backlog: 1)
        let caller = pthread_self()
        let other = Locked(false)
        background.async { other.withLock { $0 = pthread_equal(pthread_self(), caller) == 0 } }
        background.wait()
        #expect(other.withLock { $0 })
    }

    @Test func theBacklogHoldsTheCallerBack() {
        // Two slots: the third async waits until the first job, held on a gate, ends.
        let background = SerialBackground(label: "test.serial", backlog: 2)
        let gate = DispatchSemaphore(value: 0)
        let handed = Locked(0)
        background.async { gate.wait() }
        background.async {}
        let caller = Thread {
            background.async {}
            handed.withLock { $0 += 1 }
        }
        caller.start()
        usleep(100_000)
        #expect(handed.withLock { $0 } == 0)
        gate.signal()
        background.wait()
        for _ in 0..<200 where handed.withLock({ $0 }) == 0 { usleep(10_000) }
        #expect(handed.withLock { $0 } == 1)
        background.wait()
    }
}
