// What GallerySync costs against what it replaces, in a release build (-O):
//   withLock: Synchronization.Mutex vs Locked, one thread (uncontended) and two threads on one lock;
//   a continuation resumed at once: withCheckedContinuation vs withHandOffContinuation.
// Prints nanoseconds per operation, the best of 5 runs, for 3 rounds (the spread shows the noise).
import Dispatch
import GallerySync
import Synchronization

final class Locks: Sendable {
    let mutex = Mutex<Int>(0)
    let locked = Locked<Int>(0)
}

func best(of runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return best
}

func bestAsync(of runs: Int, _ body: () async -> Void) async -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        await body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    return best
}

@inline(never) func mutexLoop(_ l: Locks, _ n: Int) { for _ in 0..<n { l.mutex.withLock { $0 &+= 1 } } }
@inline(never) func lockedLoop(_ l: Locks, _ n: Int) { for _ in 0..<n { l.locked.withLock { $0 &+= 1 } } }

func onTwoThreads(_ work: @escaping @Sendable () -> Void) {
    DispatchQueue.concurrentPerform(iterations: 2) { _ in work() }
}

func format(_ x: Double) -> String {
    let tenths = Int((x * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

let locks = Locks()
let n = 2_000_000, m = 500_000, k = 200_000
for round in 1...3 {
    let mutex1 = best(of: 5) { mutexLoop(locks, n) } / Double(n)
    let locked1 = best(of: 5) { lockedLoop(locks, n) } / Double(n)
    let mutex2 = best(of: 5) { onTwoThreads { mutexLoop(locks, m) } } / Double(2 * m)
    let locked2 = best(of: 5) { onTwoThreads { lockedLoop(locks, m) } } / Double(2 * m)
    let checked = await bestAsync(of: 5) {
        for i in 0..<k { _ = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in c.resume(returning: i) } }
    } / Double(k)
    let handOff = await bestAsync(of: 5) {
        for i in 0..<k { _ = await withHandOffContinuation { (c: HandOffContinuation<Int, Never>) in c.resume(returning: i) } }
    } / Double(k)
    print("round \(round), ns/op: withLock 1 thread Mutex \(format(mutex1)) Locked \(format(locked1)); "
        + "2 threads Mutex \(format(mutex2)) Locked \(format(locked2)); "
        + "continuation Checked \(format(checked)) HandOff \(format(handOff))")
}
precondition(locks.mutex.withLock { $0 } == locks.locked.withLock { $0 })
