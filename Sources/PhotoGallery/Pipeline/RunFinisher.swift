import Foundation
import GallerySync

/// The end of a run, once its photo tasks are done (or stopped): the journal compacted (when it holds
/// records later ones replaced), then either a shard's part or the whole gallery (index, pages, manifest),
/// written from the journal one entry at a time (the gallery is never in memory whole) and handed to the
/// store after the photo files they name.
struct RunFinisher {
    /// The job run: the gallery's folder, source and page options.
    let job: GalleryJob
    /// Where the files go.
    let store: any GalleryStore
    /// Threads the writers share out their work on.
    let pool: WorkerPool

    /// Writes what `workspace`'s journal holds; `result` and `started` go in a shard's summary.
    func finish(_ workspace: RunWorkspace, result: GalleryRunSummary, started: Date) async throws(GalleryError) {
        try workspace.journal.compactIfSuperseded()
        if let layout = workspace.layout {
            try await writeShard(layout, of: workspace, result: result, started: started)
        } else {
            try await writeGallery(of: workspace)
        }
    }

    /// A shard's part: every photo file first, then the journal, the part, and its summary, each after a
    /// flush: the summary marks the part complete. An interrupted shard is not done: it leaves no part,
    /// and its journal (still handed to the store) resumes it.
    private func writeShard(_ layout: ShardLayout, of workspace: RunWorkspace, result: GalleryRunSummary,
                            started: Date) async throws(GalleryError) {
        let spill = workspace.comments
        if !result.interrupted {
            try ShardPartWriter(layout: layout, source: job.sourceDescription, parallel: pool)
                .write(workspace.journal, comments: { spill?.comments(of: $0) }, run: result, started: started)
        }
        try await store.flush()
        try await store.checkpoint(journal: workspace.journalPath)
        if !result.interrupted {
            store.publish(layout.photosPath)
            try await store.flush()
            store.publish(layout.summaryPath)
            try await store.flush()
        }
    }

    /// The gallery's index, pages and manifest, after the photo files they link to (a store publishes in
    /// any order), then the journal.
    private func writeGallery(of workspace: RunWorkspace) async throws(GalleryError) {
        let spill = workspace.comments
        var writer = GalleryWriter(folder: job.folder, source: job.sourceDescription)
        writer.pageOptions = job.pageOptions
        writer.pageOptions.sourceFormats = job.extraThumbnailFormats.map { $0.resolved(hasAlpha: false) }
        writer.parallel = pool
        writer.store = store
        try await store.flush()
        try writer.write(workspace.journal, comments: { spill?.comments(of: $0) ?? [] })
        try await store.flush()
        try await store.checkpoint(journal: workspace.journalPath)
    }
}
