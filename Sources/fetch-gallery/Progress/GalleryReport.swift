import Foundation
import GalleryKit
import GallerySync

/// Joins the pipeline's events (pages, photos) with the engine's byte counts and feeds a renderer;
/// at the end prints one line per failed photo on stderr.
final class GalleryReport: GalleryObserver {
    private struct Counts {
        var pagesDone = 0
        var pagesTotal: Int?
        var pageLimit: Int
        var queued = 0
        var ok = 0
        var failed: [(name: String, url: String, reason: String)] = []
        /// Photos their site opted out of AI use (`--respect-opt-out`): not failures.
        var optedOut: [(name: String, url: String, reason: String)] = []
        var pageFailures: [String] = []
        var skippedItems: [String] = []
    }

    private let renderer: any ProgressRenderer
    private let aggregate: AggregateProgress
    private let start = Date()
    private let counts: Locked<Counts>

    init(renderer: any ProgressRenderer, aggregate: AggregateProgress, pageLimit: Int) {
        self.renderer = renderer
        self.aggregate = aggregate
        counts = Locked(Counts(pageLimit: pageLimit))
    }

    func gallery(_ event: GalleryEvent) {
        switch event {
        case let .pageFetched(page, total, added, skipped):
            counts.withLock { c in
                c.pagesDone += 1
                if let total { c.pagesTotal = min(total, c.pageLimit) }
                c.skippedItems += skipped.map { "page \(page): \($0)" }
            }
            renderer.event("page", ["page": page, "photos": added, "skipped_items": skipped.count])
        case let .pageFailed(page, reason):
            counts.withLock { $0.pageFailures.append("page \(page): \(reason)") }
            renderer.event("page_failed", ["page": page, "error": reason])
        case .photoQueued:
            counts.withLock { $0.queued += 1 }
        case let .photoFinished(id, name, downloaded, thumbnails):
            counts.withLock { $0.ok += 1 }
            renderer.event("photo", ["id": id, "name": name, "ok": true, "bytes": downloaded, "thumbnails": thumbnails])
        case let .photoFailed(id, name, url, reason) where OptOutGate.isOptOut(reason):
            counts.withLock { $0.optedOut.append((name, url, reason)) }
            renderer.event("photo", ["id": id, "name": name, "ok": false, "opted_out": true, "url": url, "error": reason])
        case let .photoFailed(id, name, url, reason):
            counts.withLock { $0.failed.append((name, url, reason)) }
            renderer.event("photo", ["id": id, "name": name, "ok": false, "url": url, "error": reason])
        case let .sourceNotice(service, message):
            renderer.event("source", ["source": service, "message": message])
            // A wait of a minute must not look like a hang: said at once, whatever the display.
            if !(renderer is SilentProgress) {
                StandardError.write("note: \(Self.oneLine(service)): \(Self.oneLine(message, limit: 2000))\n")
            }
        }
    }

    func current() -> ProgressState {
        let c = counts.withLock { $0 }
        var state = ProgressState(totalFiles: c.queued, skipped: 0, snapshot: aggregate.snapshot,
                                  elapsed: Date().timeIntervalSince(start))
        state.unit = "photos"
        state.pages = (c.pagesDone, c.pagesTotal ?? c.pageLimit)
        state.finishedItems = c.ok + c.failed.count + c.optedOut.count
        state.failedItems = c.failed.count
        return state
    }

    func tick() { renderer.tick(current()) }

    /// Ends the display, then prints the failures (pages, skipped items, photos), one per line.
    func finish(quiet: Bool) {
        renderer.finish(current())
        let c = counts.withLock { $0 }
        // Reasons and URLs quote server text too (an offered `file:` URL, a page's error): all of it is
        // cleaned, or an ESC sequence in a listing could rewrite the user's terminal.
        for line in c.pageFailures { StandardError.write("error: \(Self.oneLine(line, limit: 2000))\n") }
        if !quiet { for line in c.skippedItems { StandardError.write("skipped: \(Self.oneLine(line, limit: 2000))\n") } }
        if !quiet { for f in c.optedOut { StandardError.write(Self.photoLine("skipped", f)) } }
        for f in c.failed { StandardError.write(Self.photoLine("error", f)) }
    }

    /// `error: photo "NAME" (URL): REASON`, each part cleaned to one line.
    private static func photoLine(_ label: String, _ f: (name: String, url: String, reason: String)) -> String {
        "\(label): photo \"\(oneLine(f.name))\" (\(oneLine(f.url, limit: 1000))): \(oneLine(f.reason, limit: 2000))\n"
    }

    /// Server text on one line, without control characters that could rewrite the terminal.
    static func oneLine(_ text: String, limit: Int = 200) -> String { GalleryFailure.oneLine(text, limit: limit) }
}
