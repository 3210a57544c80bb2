// Does ThreadSanitizer see Synchronization.Mutex's contended path on Linux?
//
// Two threads increment one Int that is only ever touched inside `withLock`, yielding inside the
// critical section now and then so the other thread finds the lock taken and goes down the slow path
// (a FUTEX_LOCK_PI syscall in the uninstrumented libswiftSynchronization.so).
//   mutex   Synchronization.Mutex: TSan reports a race on the counter, yet the total is exact.
//   locked  GallerySync's Locked (pthread_mutex_t, intercepted by TSan): no report, same total.
import Glibc
import Synchronization

let mode = CommandLine.arguments.dropFirst().first ?? "mutex"
let iterations = 20_000
let mutex = Mutex<Int>(0)
let locked = Locked<Int>(0)

func work() {
    for _ in 0..<iterations {
        switch mode {
        case "locked": locked.withLock { v in v += 1; if v % 64 == 0 { sched_yield() } }
        default: mutex.withLock { v in v += 1; if v % 64 == 0 { sched_yield() } }
        }
    }
}

var threads = [pthread_t(), pthread_t()]
for i in threads.indices { pthread_create(&threads[i], nil, { _ in work(); return nil }, nil) }
for t in threads { pthread_join(t, nil) }
let total = mode == "locked" ? locked.withLock { $0 } : mutex.withLock { $0 }
print(mode, "total", total, "expected", 2 * iterations)
