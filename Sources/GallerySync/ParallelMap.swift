import Dispatch
import Foundation

/// Runs independent pieces of CPU work at once and returns their results in index order.
///
/// For work that would otherwise run on one thread while the others wait, such as rendering the
/// gallery's pages at the end of a run. A run hands its decode/scale worker pool (so `--workers`
/// stays the run's CPU budget); ``DispatchParallel`` uses every core through Dispatch.
public protocol ParallelRunner: Sendable {
    /// `transform(0) ... transform(count - 1)`, computed concurrently, in index order. `transform`
    /// is called from several threads at once. Blocks the calling thread until all are done.
    func map<T>(_ count: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T]
}

/// ``ParallelRunner`` over `DispatchQueue.concurrentPerform`: as many threads as cores, the calling
/// thread among them.
public struct DispatchParallel: ParallelRunner {
    public init() {}

    public func map<T>(_ count: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(transform) }
        return ParallelSlots.fill(count) { slots in
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots.initialize(index, to: transform(index))
            }
        }
    }
}

/// The result array of a parallel map, filled in place: each index initialises only its own element,
/// so no lock is taken per item. `fill` returns once `run` has initialised every element.
public struct ParallelSlots<T>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<T>

    public static func fill(_ count: Int, _ run: (ParallelSlots<T>) -> Void) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            run(ParallelSlots(base: buffer.baseAddress!))
            initialized = count
        }
    }

    /// Initialises element `index`; called once for each index, from any thread.
    public func initialize(_ index: Int, to value: T) {
        (base + index).initialize(to: value)
    }
}
