import Foundation
import GalleryKit
import GallerySync

/// Feeds the progress renderer from a dataset run: rows done and failed against the rows read so far
/// (the URL list is streamed, so the total grows as shards are read), bytes from the engine.
final class DatasetReport: DatasetRunObserver {
    private let renderer: any ProgressRenderer
    let aggregate = AggregateProgress()
    private let start = Date()
    private let counts = Locked((total: 0, done: 0, failed: 0, skipped: 0))

    private let quiet: Bool

    init(renderer: any ProgressRenderer, quiet: Bool = false) {
        self.renderer = renderer
        self.quiet = quiet
    }

    /// One class of failure is most of them: said while the run goes on (a JSON event too).
    func warning(_ text: String) {
        renderer.event("warning", ["message": text])
        if !quiet { StandardError.line("warning: \(text)") }
    }

    func shardStarted(name: String, rows: Int) { counts.withLock { $0.total += rows } }

    func rowFinished(failed: Bool) {
        counts.withLock {
            $0.done += 1
            if failed { $0.failed += 1 }
        }
    }

    func shardFinished(name: String, count: Int, successes: Int) {
        renderer.event("shard", ["name": name, "rows": count, "successes": successes])
    }

    func shardSkipped(name: String, rows: Int, done: Bool) {
        if done { counts.withLock { $0.total += rows; $0.skipped += rows } }
    }

    func current() -> ProgressState {
        let c = counts.withLock { $0 }
        var state = ProgressState(totalFiles: c.total, skipped: c.skipped, snapshot: aggregate.snapshot,
                                  elapsed: Date().timeIntervalSince(start))
        state.unit = "rows"
        state.finishedItems = c.done
        state.failedItems = c.failed
        return state
    }

    func tick() { renderer.tick(current()) }

    func finish() { renderer.finish(current()) }
}
