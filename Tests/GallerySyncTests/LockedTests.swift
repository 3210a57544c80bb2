import Foundation
import GallerySync
import Testing

/// `Locked` excludes, and (under ThreadSanitizer) is seen to exclude even when contended: with
/// Synchronization.Mutex this same test makes TSan report a race on the counter.
@Suite struct LockedTests {
    @Test func contendedIncrementsAreExactAndSeenByTSan() async {
        let counter = Locked(0)
        let threads = 4, increments = 20_000
        await onThreads(threads) {
            for _ in 0..<increments {
                // Yielding inside now and then leaves the lock taken while another thread
                // asks for it, so the contended path runs too.
                counter.withLock { value in
                    value += 1
                    if value % 64 == 0 { sched_yield() }
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test func copiesShareOneLockAndValue() {
        let a = Locked([1])
        let b = a
        b.withLock { $0.append(2) }
        #expect(a.withLock { $0 } == [1, 2])
    }

    @Test func bodyErrorsPassThroughAndReleaseTheLock() {
        struct Refused: Error {}
        let lock = Locked(0)
        #expect(throws: Refused.self) {
            try lock.withLock { (value: inout Int) throws(Refused) in
                value = 1
                throw Refused()
            }
        }
        // Not deadlocked: the lock was released by the throw, and the write before it stands.
        #expect(lock.withLock { $0 } == 1)
    }
}

/// Runs `body` on `count` threads at once and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<count {
            group.addTask { await runOnThread(body) }
        }
    }
}

/// Runs `body` on a thread of its own (not the cooperative pool), so the threads really contend.
func runOnThread(_ body: @escaping @Sendable () -> Void) async {
    await withHandOffContinuation { (done: HandOffContinuation<Void, Never>) in
        Thread {
            body()
            done.resume()
        }.start()
    }
}

/// A `Locked(())` guarding other state, as a plain lock: the first version read the object's header
/// before locking, and TSan records a zero-sized value's inout access at that same address, so a
/// contended `Locked(())` was reported racing with itself (seen in the CLI's JSON progress output).
@Suite struct LockedVoidTests {
    final class Tally: @unchecked Sendable {
        var count = 0
    }

    @Test func contendedPlainLockIsSeenByTSan() async {
        let lock = Locked(())
        let tally = Tally()
        let threads = 4, increments = 20_000
        await onThreads(threads) {
            for i in 0..<increments {
                lock.withLock { _ in
                    tally.count += 1
                    if i % 64 == 0 { sched_yield() }
                }
            }
        }
        #expect(lock.withLock { _ in tally.count } == threads * increments)
    }
}
