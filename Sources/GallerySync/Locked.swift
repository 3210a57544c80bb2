#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`: the project's lock, used instead of `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux its fast path (an inlined compare-and-swap) is visible to ThreadSanitizer,
/// but its contended path is a priority-inheritance futex call inside the uninstrumented
/// libswiftSynchronization.so, so under contention TSan sees neither the acquire nor the release and
/// reports races on data the lock does protect (`Scripts/tsan-evidence/mutex_contended.swift` shows it
/// with a counter that ends exact). TSan intercepts `pthread_mutex_lock`/`unlock` wherever they are
/// called from, so with this lock every critical section is modelled, contended or not.
///
/// Same shape as `Mutex.withLock`, so a call site reads the same. Copies share one lock (a reference).
/// Not reentrant: taking it again inside `withLock` deadlocks (as with `Mutex`).
public struct Locked<Value>: @unchecked Sendable {
    /// Owns the memory the two pointers below point into; kept alive by every copy of this struct.
    @usableFromInline let storage: LockedStorage<Value>
    /// Taken once at creation, so locking reads nothing of the object itself: reading its header from
    /// another thread before taking the lock is what a `Locked(())` (a zero-sized value, whose inout
    /// access TSan records at the object's address) was reported racing with.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// A lock holding `initialValue`.
    @inlinable
    public init(_ initialValue: sending Value) {
        storage = LockedStorage.make(initialValue)
        mutex = storage.withUnsafeMutablePointerToElements { $0 }
        value = storage.withUnsafeMutablePointerToHeader { $0 }
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
            withExtendedLifetime(storage) {}
        }
        return try body(&value.pointee)
    }
}

/// The value and its `pthread_mutex_t` in one allocation; a class so the mutex never moves.
@usableFromInline
final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func make(_ initialValue: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in initialValue }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let code = pthread_mutex_init(mutex, nil)
            precondition(code == 0, "pthread_mutex_init failed: \(code)")
        }
        // `create` is typed as returning ManagedBuffer, but it allocates an instance of the class it is
        // called on.
        return unsafeDowncast(buffer, to: LockedStorage<Value>.self)
    }

    deinit {
        // The header (the value) is destroyed by ManagedBuffer; the element is ours to tear down.
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}
