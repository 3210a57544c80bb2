import GallerySync

/// Our own admission queue: at most `total` transfers run, at most `perHost` per host. Waiting transfers are
/// not yet inside libcurl, so their timeouts do not tick while they queue. FIFO, skipping waiters whose host
/// is full so one busy host does not block the others.
final class AdmissionGate: Sendable {
    private struct Waiter {
        let host: String
        let continuation: HandOffContinuation<Void, Never>
    }

    private struct State {
        var running = 0
        var perHost: [String: Int] = [:]
        var waiters: [Waiter] = []
        var peak = 0
    }

    let total: Int
    let perHost: Int
    private let state = Locked(State())

    init(total: Int, perHost: Int) {
        self.total = max(1, total)
        self.perHost = max(1, perHost)
    }

    /// Suspends until a slot for `host` is free, then holds it until `release(host:)`.
    func acquire(host: String) async {
        await withHandOffContinuation { (c: HandOffContinuation<Void, Never>) in
            let admitted = state.withLock { s in
                if s.waiters.isEmpty || !s.waiters.contains(where: { $0.host == host }),
                   s.running < total, s.perHost[host, default: 0] < perHost {
                    take(&s, host)
                    return true
                }
                s.waiters.append(Waiter(host: host, continuation: c))
                return false
            }
            if admitted { c.resume() }
        }
    }

    func release(host: String) {
        let woken: [HandOffContinuation<Void, Never>] = state.withLock { s in
            s.running -= 1
            s.perHost[host, default: 1] -= 1
            if s.perHost[host] == 0 { s.perHost[host] = nil }
            var ready: [HandOffContinuation<Void, Never>] = []
            var i = 0
            while i < s.waiters.count && s.running < total {
                let w = s.waiters[i]
                if s.perHost[w.host, default: 0] < perHost {
                    take(&s, w.host)
                    ready.append(w.continuation)
                    s.waiters.remove(at: i)
                } else {
                    i += 1
                }
            }
            return ready
        }
        for c in woken { c.resume() }
    }

    /// The most transfers that ever ran at once (for tests and metrics).
    var peakRunning: Int { state.withLock { $0.peak } }

    private func take(_ s: inout State, _ host: String) {
        s.running += 1
        s.perHost[host, default: 0] += 1
        s.peak = max(s.peak, s.running)
    }
}
