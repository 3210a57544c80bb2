import Foundation
import GalleryKit
import GallerySync

/// Joins the engine's aggregate progress, the skipped files and the failures of a batch, and feeds the renderer.
final class BatchReport: Sendable {
    private let renderer: any ProgressRenderer
    private let aggregate: AggregateProgress
    private let total: Int
    private let start = Date()
    private let state = Locked((skipped: 0, failures: [TransferError](), optedOut: [(url: String, why: String)]()))

    init(renderer: any ProgressRenderer, aggregate: AggregateProgress, total: Int) {
        self.renderer = renderer
        self.aggregate = aggregate
        self.total = total
    }

    var failureCount: Int { state.withLock { $0.failures.count } }

    func record(_ outcome: BatchOutcome) {
        switch outcome.result {
        case nil:
            state.withLock { $0.skipped += 1 }
            renderer.fileFinished(url: outcome.request.url, path: outcome.request.destination, bytes: 0, skipped: true, error: nil)
        case .success(let r)?:
            renderer.fileFinished(url: r.url, path: r.path, bytes: r.bytes, skipped: false, error: nil)
        case .failure(let e)? where outcome.optedOut != nil:
            state.withLock { $0.optedOut.append((e.url, outcome.optedOut!)) }
            renderer.fileFinished(url: e.url, path: outcome.request.destination, bytes: 0, skipped: true, error: nil)
        case .failure(let e)?:
            state.withLock { $0.failures.append(e) }
            renderer.fileFinished(url: e.url, path: outcome.request.destination, bytes: 0, skipped: false, error: e)
        }
    }

    func current() -> ProgressState {
        ProgressState(totalFiles: total, skipped: state.withLock { $0.skipped }, snapshot: aggregate.snapshot,
                      elapsed: Date().timeIntervalSince(start))
    }

    func tick() { renderer.tick(current()) }

    /// Ends the display, then prints one line per failure on stderr (after the live line is cleared).
    func finish() {
        renderer.finish(current())
        for e in state.withLock({ $0.failures }) {
            StandardError.write("error: \(e.url): \(e.reasonText)"
                + (e.attempts > 1 ? " (\(e.attempts) attempts)" : "")
                + (e.curlMessage.map { " [libcurl: \($0)]" } ?? "") + "\n")
        }
        // Not failures: the files their sites opted out of AI use (--respect-opt-out), each with its signal.
        for (url, why) in state.withLock({ $0.optedOut }) { StandardError.write("skipped: \(url): \(why)\n") }
    }
}
