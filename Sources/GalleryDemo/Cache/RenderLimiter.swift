import Foundation
import GallerySync

/// Runs blocking render jobs on Dispatch's global queue, at most `limit` at a time.
///
/// Rendering a 12 MP image decodes, scales and encodes for a while and holds ~100 MB; running it
/// on the cooperative pool would starve every other task (2 threads on a 2-core machine), and
/// running 250 at once would exhaust memory. Waiters queue in FIFO order.
final class RenderLimiter: Sendable {
    private struct State {
        var running = 0
        var waiters: [HandOffContinuation<Void, Never>] = []
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `job` on a background thread once a slot is free, and returns its result.
    func run<T: Sendable>(_ job: @escaping @Sendable () throws(DemoError) -> T) async throws(DemoError) -> T {
        await acquire()
        defer { release() }
        let result: Result<T, DemoError> = await withHandOffContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(DemoError) -> T in try job() })
            }
        }
        return try result.get()
    }

    private func acquire() async {
        await withHandOffContinuation { (continuation: HandOffContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.running < limit {
                    state.running += 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> HandOffContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            // Hand the slot straight to the next waiter; `running` stays the same.
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
