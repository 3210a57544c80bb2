import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Two-stage Ctrl-C: the first SIGINT (or SIGTERM) calls `onFirst` so the run can stop starting
/// work and write what it has; a second one exits at once with status 130.
final class Interrupts: @unchecked Sendable {
    // Touched only on the serial queue below; the sources just need to stay alive.
    private var sources: [any DispatchSourceSignal] = []
    private var count = 0
    private let queue = DispatchQueue(label: "fetch-gallery.signals")

    init(onFirst: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in
                count += 1
                if count == 1 { onFirst() } else { _exit(130) }
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
