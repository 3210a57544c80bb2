import GallerySync

/// One piece of work per key at a time: a request for a key already being rendered waits for that
/// render's answer instead of starting its own (so concurrent identical requests decode once).
final class InFlight<Value: Sendable>: Sendable {
    private typealias Waiter = HandOffContinuation<Result<Value, ServeError>?, Never>
    private let waiting = Locked([String: [Waiter]]())

    /// `work`'s result, run by the first caller for `key`; callers arriving meanwhile share it.
    func run(_ key: String, _ work: @Sendable () async throws(ServeError) -> Value) async -> Result<Value, ServeError> {
        while true {
            let first = waiting.withLock { table -> Bool in
                guard table[key] == nil else { return false }
                table[key] = []
                return true
            }
            if first {
                let result: Result<Value, ServeError>
                do throws(ServeError) { result = .success(try await work()) } catch { result = .failure(error) }
                let waiters = waiting.withLock { $0.removeValue(forKey: key) ?? [] }
                for waiter in waiters { waiter.resume(returning: result) }
                return result
            }
            let shared = await withHandOffContinuation { (continuation: Waiter) in
                let finished = waiting.withLock { table -> Bool in
                    guard table[key] != nil else { return true }
                    table[key]!.append(continuation)
                    return false
                }
                // The work ended between the two locks: try again (it may be ours to do now).
                if finished { continuation.resume(returning: nil) }
            }
            if let shared { return shared }
        }
    }

    /// Keys being worked on now.
    var count: Int { waiting.withLock { $0.count } }
}
