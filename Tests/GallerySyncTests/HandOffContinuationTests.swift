import Foundation
import GallerySync
import Synchronization
import Testing

/// What a thread writes before resuming a `HandOffContinuation` is what the task reads after the
/// await, including when the resume comes first, which is the case ThreadSanitizer cannot see with a
/// plain CheckedContinuation (Scripts/tsan-evidence/run, mode "early"): under TSan these tests fail
/// with a reported race if the fence is removed.
@Suite struct HandOffContinuationTests {
    /// Filled by a thread, read by the task; a class so both sides share one buffer.
    final class Buffer: @unchecked Sendable {
        var bytes: [UInt8] = []
        func fill(_ count: Int) { for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: i)) } }
    }

    /// Starts a thread that fills `buffer`, then calls `resume`, then raises `resumed`.
    /// A relaxed flag on purpose: it orders nothing, so TSan gets no happens-before edge from it.
    static func fillThenResume(_ buffer: Buffer, resumed: Flag, _ resume: @escaping @Sendable () -> Void) {
        Thread {
            buffer.fill(4096)
            resume()
            resumed.raise()
        }.start()
    }

    final class Flag: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .relaxed) }
        /// Waits (polling, no synchronisation) until raised.
        func waitRaised() { while !raised.load(ordering: .relaxed) { usleep(200) } }
    }

    @Test func resumedBeforeTheAwait() async {
        for _ in 0..<20 {
            let buffer = Buffer()
            let resumed = Flag()
            await withHandOffContinuation { (c: HandOffContinuation<Void, Never>) in
                Self.fillThenResume(buffer, resumed: resumed) { c.resume() }
                // Still inside the body, so the resume certainly comes before the await.
                resumed.waitRaised()
            }
            #expect(buffer.bytes.count == 4096)
            #expect(buffer.bytes.last == 255)
        }
    }

    @Test func valueBuiltByTheThreadArrivesWhole() async {
        let resumed = Flag()
        let buffer = await withHandOffContinuation { (c: HandOffContinuation<Buffer, Never>) in
            let built = Buffer()
            Self.fillThenResume(built, resumed: resumed) { c.resume(returning: built) }
            resumed.waitRaised()
        }
        #expect(buffer.bytes.count == 4096)
    }

    @Test func thrownErrorStillHandsOverWhatWasWritten() async {
        struct Failed: Error {}
        let buffer = Buffer()
        let resumed = Flag()
        await #expect(throws: Failed.self) {
            try await withThrowingHandOffContinuation { (c: HandOffContinuation<Void, any Error>) in
                Self.fillThenResume(buffer, resumed: resumed) { c.resume(throwing: Failed()) }
                resumed.waitRaised()
            }
        }
        #expect(buffer.bytes.count == 4096)
    }

    @Test func resumedLaterFromAnotherThread() async {
        // The ordinary case: the task suspends first, then the thread resumes it.
        let buffer = Buffer()
        await withHandOffContinuation { (c: HandOffContinuation<Void, Never>) in
            Thread {
                usleep(20_000)
                buffer.fill(1024)
                c.resume()
            }.start()
        }
        #expect(buffer.bytes.count == 1024)
    }
}
