import GallerySync

/// Our own admission queue: at most `total` transfers run, at most `perHost` per host. Waiting transfers are
/// not yet inside libcurl, so their timeouts do not tick while they queue. FIFO, skipping waiters whose host
/// is full so one busy host does not block the others.
///
/// An admitted transfer holds one of its host's `perHost` numbered slots: the first free one from a
/// starting point that moves on with every admission, so that a host's transfers go round its slots, and so
/// round the loops, even when they come one at a time. The engine
/// maps a slot to a transfer loop, always the same loop for the same host and slot, so each loop opens
/// at most as many connections to a host as it has slots of that host: all loops together, `perHost`.
///
/// A host with a cap of its own (`own`, from ``TransferConfiguration/hostLimits``) has that many slots
/// instead, is not counted in `total`, and queues apart: its transfers neither wait for the others'
/// total nor take from it.
final class AdmissionGate: Sendable {
    private struct Waiter {
        let host: String
        let continuation: HandOffContinuation<Int, Never>
    }

    private struct HostSlots {
        /// `true` at a held slot's number.
        var held: [Bool]
        var count: Int { held.lazy.filter { $0 }.count }
    }

    private struct State {
        var running = 0
        /// Per host, the slots held; a host with none held is absent (the table stays as small as the hosts
        /// being fetched from now, however many a run meets).
        var perHost: [String: HostSlots] = [:]
        var waiters: [Waiter] = []
        /// Waiters for the hosts of `own`, by host.
        var ownWaiters: [String: [Waiter]] = [:]
        var peak = 0
        /// Admissions so far: where the search for a free slot starts (one counter for every host, so
        /// that nothing is kept for a host with no transfer running).
        var turn = 0
    }

    let total: Int
    let perHost: Int
    /// Hosts with caps of their own, outside `total`.
    let own: [String: Int]
    private let state = Locked(State())

    init(total: Int, perHost: Int, own: [String: Int] = [:]) {
        self.total = max(1, total)
        self.perHost = max(1, perHost)
        self.own = own.mapValues { max(1, $0) }
    }

    /// The slots `host` has.
    func capacity(_ host: String) -> Int { own[host] ?? perHost }

    /// Suspends until a slot for `host` is free, then holds it until `release(host:slot:)`; returns its number
    /// (0 ..< perHost).
    func acquire(host: String) async -> Int {
        await withHandOffContinuation { (c: HandOffContinuation<Int, Never>) in
            let admitted: Int? = state.withLock { s in
                if let cap = own[host] {
                    if s.ownWaiters[host] == nil, held(s, host) < cap { return take(&s, host) }
                    s.ownWaiters[host, default: []].append(Waiter(host: host, continuation: c))
                    return nil
                }
                if s.waiters.isEmpty || !s.waiters.contains(where: { $0.host == host }),
                   s.running < total, held(s, host) < perHost {
                    return take(&s, host)
                }
                s.waiters.append(Waiter(host: host, continuation: c))
                return nil
            }
            if let admitted { c.resume(returning: admitted) }
        }
    }

    func release(host: String, slot: Int) {
        let woken: [(HandOffContinuation<Int, Never>, Int)] = state.withLock { s in
            if own[host] == nil { s.running -= 1 }
            if var slots = s.perHost[host], slot < slots.held.count {
                slots.held[slot] = false
                s.perHost[host] = slots.held.contains(true) ? slots : nil
            }
            var ready: [(HandOffContinuation<Int, Never>, Int)] = []
            if own[host] != nil {
                // One slot came free: the host's first waiter takes it.
                if var queue = s.ownWaiters[host], !queue.isEmpty {
                    let w = queue.removeFirst()
                    s.ownWaiters[host] = queue.isEmpty ? nil : queue
                    ready.append((w.continuation, take(&s, host)))
                }
                return ready
            }
            var i = 0
            while i < s.waiters.count && s.running < total {
                let w = s.waiters[i]
                if held(s, w.host) < perHost {
                    ready.append((w.continuation, take(&s, w.host)))
                    s.waiters.remove(at: i)
                } else {
                    i += 1
                }
            }
            return ready
        }
        for (c, slot) in woken { c.resume(returning: slot) }
    }

    /// Transfers waiting for a slot now (for tests).
    var waiting: Int { state.withLock { $0.waiters.count + $0.ownWaiters.values.reduce(0) { $0 + $1.count } } }

    /// The most transfers that ever ran at once, hosts with caps of their own left out (for tests and metrics).
    var peakRunning: Int { state.withLock { $0.peak } }

    /// Slots of `host` held now.
    private func held(_ s: State, _ host: String) -> Int {
        s.perHost[host]?.count ?? 0
    }

    /// Takes the first free slot of `host` from this admission's starting point (the caller checked there
    /// is one) and returns its number.
    private func take(_ s: inout State, _ host: String) -> Int {
        let cap = capacity(host)
        if own[host] == nil {
            s.running += 1
            s.peak = max(s.peak, s.running)
        }
        var slots = s.perHost[host] ?? HostSlots(held: [Bool](repeating: false, count: cap))
        var slot = s.turn % cap
        s.turn &+= 1
        while slots.held[slot] { slot = (slot + 1) % cap }
        slots.held[slot] = true
        s.perHost[host] = slots
        return slot
    }
}
