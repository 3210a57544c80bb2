import Dispatch

/// Jobs run one after another, in the order handed, on a thread other than the caller's: the caller goes on while
/// they run (a digest over the chunks of a file being written), and ``wait()`` returns when every job handed so far
/// is done. At most `backlog` jobs wait or run at once: ``async(_:)`` blocks while that many do, so a caller faster
/// than its jobs is held back instead of piling up their inputs.
public final class SerialBackground: Sendable {
    private let queue: DispatchQueue
    private let slots: DispatchSemaphore

    public init(label: String, backlog: Int) {
        precondition(backlog > 0, "SerialBackground needs a backlog of at least 1")
        queue = DispatchQueue(label: label)
        slots = DispatchSemaphore(value: backlog)
    }

    /// Hands `job` on, after the ones before it; blocks while `backlog` jobs are waiting or running.
    public func async(_ job: @escaping @Sendable () -> Void) {
        slots.wait()
        queue.async { [slots] in
            job()
            slots.signal()
        }
    }

    /// Returns once every job handed so far has run.
    public func wait() {
        queue.sync {}
    }
}
