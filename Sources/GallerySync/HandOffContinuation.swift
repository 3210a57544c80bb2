import Synchronization

/// A checked continuation whose hand-off ThreadSanitizer always sees.
///
/// Why: Swift's runtime tells TSan about a resume (a release on the resuming thread, an acquire where
/// the task runs again) only when the task had already suspended and the resume enqueues it. When the
/// resume wins the race with the await (a quick transfer, a worker that finishes first),
/// `swift_continuation_await` finds the continuation resumed and goes on inline, with the runtime's
/// own acquire load in uninstrumented code and no TSan annotation. Everything the resuming thread wrote
/// before resuming (a body it collected, a value it computed) is then reported as racing with the
/// task's reads after the await, although the memory is correctly ordered
/// (`Scripts/tsan-evidence/continuation_order.swift`: resumed before the await, reported every run;
/// after it, never; with this fence, never).
///
/// The fence is a real release/acquire pair on an atomic of our own (instrumented, so TSan models it):
/// `resume` stores with release before resuming, and the awaiting side loads with acquire once the
/// await returns. It costs one small allocation and two uncontended atomic operations per hand-off.
public struct HandOffContinuation<T, E: Error>: Sendable {
    @usableFromInline let continuation: CheckedContinuation<T, E>
    @usableFromInline let fence: HandOffFence

    @usableFromInline
    init(_ continuation: CheckedContinuation<T, E>, fence: HandOffFence) {
        self.continuation = continuation
        self.fence = fence
    }

    /// Resumes the task with `value`; everything written before this call is visible to it.
    @inlinable
    public func resume(returning value: sending T) {
        fence.publish()
        continuation.resume(returning: value)
    }

    /// Resumes the task by throwing `error`.
    @inlinable
    public func resume(throwing error: E) {
        fence.publish()
        continuation.resume(throwing: error)
    }

    /// Resumes the task with `result`'s value or error.
    @inlinable
    public func resume(with result: sending Result<T, E>) {
        fence.publish()
        continuation.resume(with: result)
    }
}

extension HandOffContinuation where T == Void {
    /// Resumes the task.
    @inlinable
    public func resume() { resume(returning: ()) }
}

/// The atomic both sides of one hand-off use (see `HandOffContinuation`).
@usableFromInline
final class HandOffFence: Sendable {
    @usableFromInline let published = Atomic<Bool>(false)

    @usableFromInline init() {}

    @inlinable
    func publish() { published.store(true, ordering: .releasing) }

    @inlinable
    func observe() { _ = published.load(ordering: .acquiring) }
}

/// `withCheckedContinuation` with a `HandOffContinuation`: the task sees everything the resuming thread
/// wrote before resuming, and so does ThreadSanitizer.
@inlinable
public func withHandOffContinuation<T>(
    isolation: isolated (any Actor)? = #isolation, function: String = #function,
    _ body: (HandOffContinuation<T, Never>) -> Void
) async -> sending T {
    let fence = HandOffFence()
    let value = await withCheckedContinuation(isolation: isolation, function: function) { (c: CheckedContinuation<T, Never>) in
        body(HandOffContinuation(c, fence: fence))
    }
    fence.observe()
    return value
}

/// `withCheckedThrowingContinuation` with a `HandOffContinuation` (see `withHandOffContinuation`).
@inlinable
public func withThrowingHandOffContinuation<T>(
    isolation: isolated (any Actor)? = #isolation, function: String = #function,
    _ body: (HandOffContinuation<T, any Error>) -> Void
) async throws -> sending T {
    let fence = HandOffFence()
    do {
        let value = try await withCheckedThrowingContinuation(isolation: isolation, function: function) { (c: CheckedContinuation<T, any Error>) in
            body(HandOffContinuation(c, fence: fence))
        }
        fence.observe()
        return value
    } catch {
        fence.observe()
        throw error
    }
}
