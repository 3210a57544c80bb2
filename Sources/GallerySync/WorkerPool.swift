import Foundation
import Synchronization

/// A fixed set of threads for CPU-bound work (decode, scale, encode, hash), so that long C calls
/// never occupy Swift's cooperative pool, where the download stage's continuations run.
/// Work waits in a FIFO queue; `run` suspends the calling task until its work is done (or, called from
/// a pool thread, does it in place), and `map` spreads a batch of items over the threads (the gallery's
/// pages at the end of a run). The pool is also a task executor: a run's photo tasks prefer it, so they
/// run on these threads from one download to the next.
public final class WorkerPool: ParallelRunner {
    private struct State {
        var queue: [Work] = []
        var head = 0
        var stopped = false
    }

    /// What waits in the queue: a closure of `run` or `map`, or a partial task of a task that prefers the
    /// pool as its executor (see ``TaskExecutor``).
    private enum Work: Sendable {
        case closure(@Sendable () -> Void)
        case task(UnownedJob)
    }

    /// What the threads share with the pool: the queue and the semaphore that counts it.
    private final class Shared: Sendable {
        let state = Locked(State())
        let available = DispatchSemaphore(value: 0)
        /// The pool's own threads, so that `map` can refuse to be called from one (it would wait on itself).
        let threads = Locked<Set<UInt>>([])
    }

    private let shared = Shared()
    /// The number of threads.
    public let width: Int

    /// Work waiting in the queue now (for tests that need the pool busy with queued work).
    var queuedCount: Int { shared.state.withLock { $0.queue.count - $0.head } }

    /// Starts `threads` worker threads (at least one).
    public init(threads: Int) {
        width = max(1, threads)
        // Unowned: the threads must not keep the pool alive (its deinit stops them).
        let executor = asUnownedTaskExecutor()
        for index in 0..<width {
            NamedThread.start("fg-work-\(index)") { [shared] in
                shared.threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                while true {
                    shared.available.wait()
                    let job: Work? = shared.state.withLock { s in
                        guard s.head < s.queue.count else { return nil }
                        let job = s.queue[s.head]
                        // Dropped from the queue now, not at the next trim: a job's closure holds what it
                        // captured (a run's journal, whose lock a next run in the process waits for).
                        s.queue[s.head] = Self.taken
                        s.head += 1
                        if s.head > 1024 && s.head * 2 > s.queue.count {
                            s.queue.removeFirst(s.head)
                            s.head = 0
                        }
                        return job
                    }
                    switch job {
                    case nil: return  // woken with nothing queued: stopped
                    case .closure(let work)?: work()
                    case .task(let task)?: task.runSynchronously(on: executor)
                    }
                }
            }
        }
    }

    deinit { shutdown() }

    /// What stands in the queue for a job a thread has taken.
    private static let taken = Work.closure {}

    /// Lets the threads finish what is queued, then end.
    public func shutdown() {
        let first = shared.state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        if first { for _ in 0..<width { shared.available.signal() } }
    }

    /// Runs `transform` for every index on the pool's threads (each takes the next index until none is
    /// left) and returns the results in order, blocking the calling thread meanwhile. Not for a pool
    /// thread itself. A stopped pool runs them on the calling thread.
    public func map<T>(_ count: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(transform) }
        precondition(!shared.threads.withLock { $0.contains(UInt(pthread_self())) },
                     "WorkerPool.map called from one of its own threads")
        let next = Counter()
        let finished = DispatchGroup()
        return ParallelSlots.fill(count) { slots in
            let job: @Sendable () -> Void = {
                while case let index = next.take(), index < count {
                    slots.initialize(index, to: transform(index))
                }
                finished.leave()
            }
            for _ in 0..<min(width, count) {
                finished.enter()
                if !enqueue(job) { job() }
            }
            finished.wait()
        }
    }

    /// Queues `job` for a thread; false when the pool has stopped.
    private func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool { push(.closure(job)) }

    /// Queues `work` and wakes a thread for it; false when the pool has stopped.
    private func push(_ work: Work) -> Bool {
        let accepted = shared.state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.queue.append(work)
            return true
        }
        if accepted { shared.available.signal() }
        return accepted
    }

    /// Whether the calling thread is one of the pool's.
    var isPoolThread: Bool { shared.threads.withLock { $0.contains(UInt(pthread_self())) } }

    /// Runs `work` on a pool thread and returns its result: at once, on the calling thread, when that is
    /// one of the pool's (a task that prefers the pool as its executor runs there), else handed to one.
    /// If the calling task is cancelled before a thread takes the work, the work is skipped and this
    /// throws `CancellationError`, so a stopping run does not wait for the whole queue.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        if isPoolThread {
            try Task.checkCancellation()
            return try work()
        }
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withThrowingHandOffContinuation { (continuation: HandOffContinuation<T, any Error>) in
                let job: @Sendable () -> Void = {
                    if cancelled.isSet { return continuation.resume(throwing: CancellationError()) }
                    continuation.resume(with: Result { try work() })
                }
                if !enqueue(job) { continuation.resume(throwing: CancellationError()) }
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

/// The next index of a ``WorkerPool/map(_:_:)``, shared by its threads.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// The pool as a task executor: a task started with the pool as its executor preference
/// (`Task(executorPreference: pool)`, inherited by its child tasks) runs its partial tasks on the pool's
/// threads, so a photo's steps after each download need no hop to Swift's pool and back, and its CPU
/// work (`run` called from a pool thread) runs in place. Partial tasks queue with `run`'s work, first in
/// first out. A partial task enqueued after the pool has stopped runs on a thread of its own, so no task
/// is ever left waiting.
extension WorkerPool: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let task = UnownedJob(job)
        guard !push(.task(task)) else { return }
        let executor = asUnownedTaskExecutor()
        NamedThread.start("fg-work-late") { task.runSynchronously(on: executor) }
    }
}
