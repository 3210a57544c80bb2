import GallerySync

/// At most `limit` holders at once, the others waiting in turn (an async semaphore): bounds the bodies
/// read into memory for uploads that wait on the store.
final class UploadSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [HandOffContinuation<Void, Never>] = []
    }
    private let state: Locked<State>

    init(limit: Int) { state = Locked(State(free: max(1, limit))) }

    func acquire() async {
        await withHandOffContinuation { continuation in
            let now = state.withLock { s -> Bool in
                if s.free > 0 { s.free -= 1; return true }
                s.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { s -> HandOffContinuation<Void, Never>? in
            if s.waiting.isEmpty { s.free += 1; return nil }
            return s.waiting.removeFirst()
        }
        next?.resume()
    }
}
