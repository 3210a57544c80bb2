import Dispatch
import Synchronization

/// Runs `body(i)` for every `i` in `0..<count` on `workers` threads, each taking the next index
/// when it finishes one (a sliding window with a fixed ceiling). With one worker everything runs
/// on the calling thread, so `--jobs 1` is truly single-threaded.
enum ParallelWork {
    static func run(count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let next = Atomic<Int>(0)
        let lanes = max(1, min(workers, count))
        if lanes == 1 {
            for i in 0..<count { body(i) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: lanes) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(i)
            }
        }
    }
}
