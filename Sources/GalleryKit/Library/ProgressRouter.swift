import GallerySync

/// Hands the progress of shared work to every request waiting on it: handlers register under
/// their source, and the one download or decode for that source reports once for all of them.
final class ProgressRouter: Sendable {
    typealias Handler = @Sendable (ImageProgress) -> Void

    private struct State {
        var handlers: [ImageRequest.Source: [UInt64: Handler]] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Registers `handler` for `source`; pass the returned token to ``remove(_:source:)``.
    func add(_ handler: @escaping Handler, for source: ImageRequest.Source) -> UInt64 {
        state.withLock { s in
            s.lastID += 1
            s.handlers[source, default: [:]][s.lastID] = handler
            return s.lastID
        }
    }

    func remove(_ token: UInt64, source: ImageRequest.Source) {
        state.withLock { s in
            s.handlers[source]?[token] = nil
            if s.handlers[source]?.isEmpty == true { s.handlers[source] = nil }
        }
    }

    /// Calls every handler of `source` (outside the lock, so a handler may do anything quick).
    func report(_ progress: ImageProgress, for source: ImageRequest.Source) {
        let handlers = state.withLock { s in s.handlers[source].map { Array($0.values) } ?? [] }
        for handler in handlers { handler(progress) }
    }

    /// Whether anyone listens to `source`, so that progress values are only built when needed.
    func hasHandlers(for source: ImageRequest.Source) -> Bool {
        state.withLock { $0.handlers[source] != nil }
    }
}
