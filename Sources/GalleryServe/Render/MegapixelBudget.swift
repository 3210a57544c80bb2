import GalleryKit
import GallerySync

/// Caps the megapixels being decoded at once, not the number of decodes: a request takes the
/// megapixels its output may need at most (the box, or the source limit for a full-size decode)
/// and waits while the total would pass the budget. One request is always let through alone, so
/// a request bigger than the whole budget still runs, by itself.
final class MegapixelBudget: Sendable {
    private struct State { var used = 0.0; var waiters: [(Double, HandOffContinuation<Void, Never>)] = [] }
    private let state = Locked(State())
    let megapixels: Double

    init(megapixels: Int) { self.megapixels = Double(max(1, megapixels)) }

    /// Megapixels in use now.
    var used: Double { state.withLock { $0.used } }

    func withRoom<T>(for size: ImageRequest.Size, options: ProcessingOptions,
                     _ work: () async throws(ImagePipelineError) -> T) async throws(ImagePipelineError) -> T {
        let cost = Self.cost(of: size)
        await acquire(cost)
        defer { release(cost) }
        return try await work()
    }

    /// The decoded megapixels a size may take: the codec reduces to about the box (twice it at most).
    static func cost(of size: ImageRequest.Size) -> Double {
        switch size {
        case .full: return 24
        case .longestEdge(let edge): return min(24, 2 * Double(edge * edge) / 1e6)
        case .fit(let w, let h), .cover(let w, let h):
            return min(24, 2 * Double(min(w, 16_384)) * Double(min(h, 16_384)) / 1e6 + 0.1)
        }
    }

    private func acquire(_ cost: Double) async {
        let admitted = state.withLock { state -> Bool in
            guard state.used == 0 || state.used + cost <= megapixels else { return false }
            state.used += cost
            return true
        }
        if admitted { return }
        await withHandOffContinuation { (continuation: HandOffContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.used == 0 || state.used + cost <= megapixels { state.used += cost; return true }
                state.waiters.append((cost, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release(_ cost: Double) {
        let woken = state.withLock { state -> [HandOffContinuation<Void, Never>] in
            state.used = max(0, state.used - cost)
            var woken: [HandOffContinuation<Void, Never>] = []
            while let (next, waiter) = state.waiters.first, state.used == 0 || state.used + next <= megapixels {
                state.waiters.removeFirst()
                state.used += next
                woken.append(waiter)
            }
            return woken
        }
        for waiter in woken { waiter.resume() }
    }
}
