import Dispatch

/// Runs jobs on a dedicated dispatch queue instead of the cooperative pool. The pool has one thread per core
/// (2 here), and synchronous tests elsewhere in the run (e.g. waiting for a curl or fetch-gallery process)
/// can hold every one of them for seconds; timing assertions run their async work here so that does not
/// stall them.
public final class DedicatedTaskExecutor: TaskExecutor {
    public static let shared = DedicatedTaskExecutor()
    /// Concurrent and not cooperative: GCD adds threads when one blocks, so no test waits behind another.
    /// (A task still runs one job at a time, so its own order is kept.)
    private let queue = DispatchQueue(label: "fetch-gallery.tests.timing", attributes: .concurrent)

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `body` (and every task it awaits or starts) off the cooperative pool.
    public static func offPool<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(shared, operation: body)
    }
}
