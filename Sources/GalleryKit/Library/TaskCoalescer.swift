import GallerySync

/// The in-flight table: one shared unstructured task per key, awaited by any number of callers.
///
/// A caller that is cancelled leaves at once with the cancellation result, while the others keep
/// waiting for the shared work; when the last caller leaves, the shared task is cancelled (which
/// stops its transfer and skips its decode) and the key is free for fresh work.
final class TaskCoalescer<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    typealias Outcome = Result<Value, Failure>

    private struct Entry {
        /// Distinguishes this round of work from a later one under the same key.
        var generation: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: Waiter] = [:]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Locked(State())

    /// The value for `key`: from work already in flight when there is some, else from `work`,
    /// started now in its own task. `joined` is told whether the caller joined existing work.
    func value(for key: Key, cancelled: @escaping @Sendable () -> Failure,
               joined: (Bool) -> Void,
               work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let waiter = Waiter()
        let (id, generation, isNew) = state.withLock { s -> (UInt64, UInt64, Bool) in
            s.lastID += 1
            let id = s.lastID
            if s.entries[key] != nil {
                s.entries[key]!.waiters[id] = waiter
                return (id, s.entries[key]!.generation, false)
            }
            s.entries[key] = Entry(generation: id, task: nil, waiters: [id: waiter])
            return (id, id, true)
        }
        joined(!isNew)
        if isNew {
            let task = Task { [self] in
                let outcome = await work()
                finish(key, generation: generation, with: outcome)
            }
            let orphaned = state.withLock { s -> Bool in
                guard s.entries[key]?.generation == generation else { return true }
                s.entries[key]!.task = task
                return false
            }
            // Every waiter left before the task was recorded: nobody wants the result.
            if orphaned { task.cancel() }
        }
        return await withTaskCancellationHandler {
            await waiter.wait()
        } onCancel: {
            leave(key, generation: generation, id: id, waiter: waiter, outcome: .failure(cancelled()))
        }
    }

    /// The number of keys with work in flight (for tests and diagnostics).
    var inFlightCount: Int { state.withLock { $0.entries.count } }

    private func finish(_ key: Key, generation: UInt64, with outcome: Outcome) {
        let waiters = state.withLock { s -> [Waiter] in
            guard let entry = s.entries[key], entry.generation == generation else { return [] }
            s.entries[key] = nil
            return Array(entry.waiters.values)
        }
        for waiter in waiters { waiter.deliver(outcome) }
    }

    private func leave(_ key: Key, generation: UInt64, id: UInt64, waiter: Waiter, outcome: Outcome) {
        let abandoned = state.withLock { s -> Task<Void, Never>?? in
            guard var entry = s.entries[key], entry.generation == generation,
                  entry.waiters.removeValue(forKey: id) != nil else { return nil }
            if entry.waiters.isEmpty {
                s.entries[key] = nil
                return .some(entry.task)
            }
            s.entries[key] = entry
            return nil
        }
        waiter.deliver(outcome)
        if let abandoned { abandoned?.cancel() }
    }

    /// One caller's slot: the outcome may arrive before or after the caller suspends.
    private final class Waiter: Sendable {
        private enum Slot {
            case empty
            case waiting(HandOffContinuation<Outcome, Never>)
            case done(Outcome)
        }

        private let slot = Locked(Slot.empty)

        func wait() async -> Outcome {
            await withHandOffContinuation { continuation in
                let ready = slot.withLock { s -> Outcome? in
                    if case .done(let outcome) = s { return outcome }
                    s = .waiting(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        /// The first outcome delivered wins; later ones are dropped.
        func deliver(_ outcome: Outcome) {
            let continuation = slot.withLock { s -> HandOffContinuation<Outcome, Never>? in
                switch s {
                case .empty:
                    s = .done(outcome)
                    return nil
                case .waiting(let continuation):
                    s = .done(outcome)
                    return continuation
                case .done:
                    return nil
                }
            }
            continuation?.resume(returning: outcome)
        }
    }
}
