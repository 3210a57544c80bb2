import Dispatch
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// Two-stage Ctrl-C for every command: the first SIGINT or SIGTERM calls `onFirst` and wakes `wait()`,
/// so a command can stop cleanly; a second one exits at once with status 130. The default actions are
/// ignored from construction on, so create it before anything that may take long.
final class Interrupts: @unchecked Sendable {
    // Everything below is touched only on `queue`; the sources just need to stay alive.
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?
    private var waiters: [HandOffContinuation<Int32, Never>] = []
    private let queue = DispatchQueue(label: "fetch-gallery.signals")

    init(onFirst: (@Sendable (Int32) -> Void)? = nil) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            // Weak, not unowned: a signal whose handler was already queued when the command finished
            // and released this object must find nothing, not crash ("attempted to read an unowned
            // reference but object was already destroyed", seen once in serve-demo's SIGINT test).
            source.setEventHandler { [weak self] in
                guard let self else { return }
                guard received == nil else { _exit(130) }
                received = number
                onFirst?(number)
                for waiter in waiters { waiter.resume(returning: number) }
                waiters.removeAll()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal (waits until one arrives).
    func wait() async -> Int32 {
        await withHandOffContinuation { continuation in
            queue.async { [self] in
                if let received { continuation.resume(returning: received) } else { waiters.append(continuation) }
            }
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
