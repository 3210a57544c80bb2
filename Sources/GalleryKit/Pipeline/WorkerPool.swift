import Foundation
import GallerySync
import Synchronization

/// A fixed set of threads for CPU-bound work (decode, scale, encode, hash), so that long C calls
/// never occupy Swift's cooperative pool, where the download stage's continuations run.
/// Work waits in a FIFO queue; `run` suspends the calling task until its work is done.
public final class WorkerPool: Sendable {
    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var stopped = false
    }

    /// What the threads share with the pool: the queue and the semaphore that counts it.
    private final class Shared: Sendable {
        let state = Locked(State())
        let available = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()
    /// The number of threads.
    public let width: Int

    /// Starts `threads` worker threads (at least one).
    public init(threads: Int) {
        width = max(1, threads)
        for index in 0..<width {
            let thread = Thread { [shared] in
                while true {
                    shared.available.wait()
                    let job: (@Sendable () -> Void)? = shared.state.withLock { s in
                        guard s.head < s.queue.count else { return nil }
                        let job = s.queue[s.head]
                        s.head += 1
                        if s.head > 1024 && s.head * 2 > s.queue.count {
                            s.queue.removeFirst(s.head)
                            s.head = 0
                        }
                        return job
                    }
                    guard let job else { return }  // woken with nothing queued: stopped
                    job()
                }
            }
            thread.name = "fetch-gallery-worker-\(index)"
            thread.start()
        }
    }

    deinit { shutdown() }

    /// Lets the threads finish what is queued, then end.
    public func shutdown() {
        let first = shared.state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        if first { for _ in 0..<width { shared.available.signal() } }
    }

    /// Runs `work` on a pool thread and returns its result. If the calling task is cancelled before
    /// a thread takes the work, the work is skipped and this throws `CancellationError`, so a
    /// stopping run does not wait for the whole queue.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withThrowingHandOffContinuation { (continuation: HandOffContinuation<T, any Error>) in
                let job: @Sendable () -> Void = {
                    if cancelled.isSet { return continuation.resume(throwing: CancellationError()) }
                    continuation.resume(with: Result { try work() })
                }
                let accepted = shared.state.withLock { s -> Bool in
                    guard !s.stopped else { return false }
                    s.queue.append(job)
                    return true
                }
                if accepted { shared.available.signal() } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            cancelled.set()
        }
    }
}

/// Set once, read from any thread.
private final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
