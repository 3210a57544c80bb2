import Foundation
import GallerySync
import Synchronization

/// The one batch runner under both products: the gallery's photos and the dataset's shards and rows run
/// through it. It owns the worker pool the items' tasks prefer as their executor (a photo's or a row's steps
/// after its download run on the pool's threads, its imaging in place), bounded windows of concurrent items,
/// and the stop: ``requestStop(signal:)`` stops starting items, cancels those in flight (their downloads end
/// as cancelled, so nothing half-fetched is recorded as a result), and lets each writer record what finished.
///
/// A run is one call of ``run(_:)``; items are started inside it with ``forEach(window:next:_:)``.
public final class BatchRunner: Sendable {
    /// The threads the items' tasks run on (decode, resize, encode, hash run there in place).
    public let pool: WorkerPool
    /// 0 while running; once stopped, the signal that asked (``stopWithoutSignal`` when none did).
    private let stopped = Atomic<Int32>(0)
    /// Cancels the task of the ``run(_:)`` in progress (nil between runs).
    private let cancelWork = Locked<(@Sendable () -> Void)?>(nil)
    /// Called once, on the first stop (the gallery's feed closes its permits there).
    private let stopHandlers = Locked<[@Sendable () -> Void]>([])

    /// ``stopSignal`` of a stop asked for by code rather than by a signal.
    public static let stopWithoutSignal: Int32 = -1

    /// A runner whose pool has `threads` threads (at least one).
    public init(threads: Int) {
        pool = WorkerPool(threads: threads)
    }

    deinit { pool.shutdown() }

    /// Stops starting items and cancels those in flight; the run then returns, and its writer records what
    /// finished. `signal` (SIGINT, SIGTERM) decides the exit status a command reports (130, 143).
    public func requestStop(signal: Int32 = BatchRunner.stopWithoutSignal) {
        guard stopped.compareExchange(expected: 0, desired: signal == 0 ? Self.stopWithoutSignal : signal,
                                      ordering: .relaxed).exchanged else { return }
        for handler in stopHandlers.withLock({ $0 }) { handler() }
        cancelWork.withLock { $0 }?()
    }

    /// Whether ``requestStop(signal:)`` was called.
    public var isStopping: Bool { stopped.load(ordering: .relaxed) != 0 }

    /// The signal that stopped the run (``stopWithoutSignal`` for a stop by code), nil while it runs.
    public var stopSignal: Int32? {
        let value = stopped.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// `handler` runs once when the run is stopped (at once when it already is).
    package func onStop(_ handler: @escaping @Sendable () -> Void) {
        stopHandlers.withLock { $0.append(handler) }
        if isStopping { handler() }
    }

    /// Runs `body` as the batch's one task, on the pool, to its end or until a stop cancels it (the caller's
    /// cancellation cancels it too).
    package func run<Result: Sendable>(_ body: sending @escaping () async -> Result) async -> Result {
        let task = Task(executorPreference: pool) { await body() }
        cancelWork.withLock { $0 = { task.cancel() } }
        // A stop that came before the task was recorded found nothing to cancel.
        if isStopping { task.cancel() }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        cancelWork.withLock { $0 = nil }
        return result
    }

    /// Runs `body` for each item `next` gives, at most `window` at once, each in a child task that prefers the
    /// pool; stops taking items at a stop or when `next` returns nil, and returns once every started item is
    /// done. An error from `next` ends the loop the same way and is rethrown after.
    package func forEach<Item: Sendable, Failure: Error>(window: Int, next: () async throws(Failure) -> Item?,
                                                 _ body: @escaping @Sendable (Item) async -> Void) async throws(Failure) {
        try await forEach(window: window, next: next, releasingEarly: { item, _ in await body(item) })
    }

    /// ``forEach(window:next:_:)`` where an item may give its place back before it ends: `started`, called by
    /// its body (once counts), lets the next item start while the body goes on. A dataset's shard calls it
    /// when its last row has started, so the next shard starts while the last rows of this one (a slow body
    /// to its deadline, a stall) finish: with the place held to the end, the last shard of a list waited
    /// 10 s for a stalled row of an earlier one, and each shard's slowest row left one of the two shard
    /// places idle. At most `window` items are before their `started`; those past it are bounded by their
    /// own end (a row's deadline), and at most ``openItems(window:)`` items are started and not ended: each
    /// holds what it writes open (a shard's writer, its files, a reshaped shard's copies), so a run of slow
    /// tails waits rather than opening shards without end.
    package func forEach<Item: Sendable, Failure: Error>(window: Int, next: () async throws(Failure) -> Item?,
                                                 releasingEarly body: @escaping @Sendable (Item, _ started: @escaping @Sendable () async -> Void) async -> Void) async throws(Failure) {
        let places = AsyncPermits(window)
        let open = AsyncPermits(Self.openItems(window: window))
        var failure: Failure?
        // Discarding: a finished item's task is not kept until the loop ends (a shard's rows run to thousands).
        await withDiscardingTaskGroup { group in
            while !isStopping {
                let item: Item?
                do throws(Failure) { item = try await next() } catch {
                    failure = error
                    break
                }
                guard let item else { break }
                _ = await open.acquire()
                _ = await places.acquire()
                // The stop may have come while this item waited for room: it is not started.
                if isStopping {
                    await places.release()
                    await open.release()
                    break
                }
                group.addTask(executorPreference: pool) {
                    let given = Locked(false)
                    let giveBack: @Sendable () async -> Void = {
                        if !given.withLock({ g in defer { g = true }; return g }) { await places.release() }
                    }
                    await body(item, giveBack)
                    await giveBack()
                    await open.release()
                }
            }
        }
        if let failure { throw failure }
    }

    /// How many items of a `window` may be started and not ended at once when they give their place back
    /// early: twice the window.
    package static func openItems(window: Int) -> Int { 2 * max(1, window) }

    /// ``forEach(window:next:_:)`` over an array.
    package func forEach<Item: Sendable>(window: Int, _ items: [Item], _ body: @escaping @Sendable (Item) async -> Void) async {
        var iterator = items.makeIterator()
        await forEach(window: window, next: { () throws(Never) in iterator.next() }, body)
    }
}
