import Foundation
import GalleryKit
import GallerySync
import Testing
@testable import GalleryServe

/// Decodes share a megapixel budget: work past it waits for room, small work passes beside big work,
/// and one piece of work bigger than the whole budget still runs, alone.
struct MegapixelBudgetTests {
    /// Records how many megapixels were held at once at most.
    final class Peak: Sendable {
        private let state = Locked((now: 0.0, peak: 0.0))
        func enter(_ cost: Double) { state.withLock { $0.now += cost; $0.peak = max($0.peak, $0.now) } }
        func leave(_ cost: Double) { state.withLock { $0.now -= cost } }
        var peak: Double { state.withLock { $0.peak } }
    }

    @Test func concurrentWorkStaysWithinTheBudget() async throws {
        let budget = MegapixelBudget(megapixels: 2)
        let size = ImageRequest.Size.cover(width: 600, height: 600)  // 2 x 0.36 MP + 0.1 = 0.82 MP
        let cost = MegapixelBudget.cost(of: size)
        #expect(abs(cost - 0.82) < 0.001)
        let peak = Peak()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await budget.withRoom(for: size, options: ProcessingOptions()) { () async throws(ImagePipelineError) in
                        peak.enter(cost)
                        try? await Task.sleep(for: .milliseconds(40))
                        peak.leave(cost)
                    }
                }
            }
            try await group.waitForAll()
        }
        // Two fit in 2 MP (1.64), three would not (2.46).
        #expect(peak.peak <= 2.0 && peak.peak > 1.6, "peak \(peak.peak) MP")
        #expect(budget.used == 0)
    }

    @Test func workBiggerThanTheBudgetRunsAlone() async throws {
        let budget = MegapixelBudget(megapixels: 1)
        let started = ContinuousClock.now
        try await budget.withRoom(for: .full, options: ProcessingOptions()) { () async throws(ImagePipelineError) in
            #expect(budget.used == MegapixelBudget.cost(of: .full))
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(budget.used == 0)
    }
}
