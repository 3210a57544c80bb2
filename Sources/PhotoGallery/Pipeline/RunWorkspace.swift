import Foundation

/// What a run opens in the gallery folder before its first photo, and what its photo tasks write into:
/// the folders the downloads need, the journal (a shard's own), and the comments spill (`--comments`).
/// A shard's workspace also withdraws its summary from the store as it opens: the shard is not done
/// until this run writes its part again.
struct RunWorkspace: Sendable {
    /// The gallery folder (where files are made).
    let folder: String
    /// A shard's paths (journal, staging folder, part, summary), or nil: the whole job.
    let layout: ShardLayout?
    /// The progress of every photo; a re-run, or a run after SIGKILL, picks up from it.
    let journal: Journal
    /// The journal's path in the folder.
    let journalPath: String
    /// The comments fetched so far, kept in a file beside the journal, not in memory; nil without `--comments`.
    let comments: CommentSpill?

    /// Makes the folders, opens the journal and the spill, and (a shard) withdraws the shard's summary.
    init(job: GalleryJob, store: any GalleryStore) throws(GalleryError) {
        folder = job.folder
        layout = job.shard.map { ShardLayout(folder: job.folder, shard: $0) }
        journalPath = layout?.journalPath ?? GalleryNaming.journalPath
        // The engine writes originals straight into photos/ (a shard: into its staging folder,
        // then renames them there); thumbnails make their own folders.
        try POSIX.makeDirectories(folder + "/photos")
        if let layout { try POSIX.makeDirectories(folder + "/" + layout.stagingFolder) }
        journal = try Journal(folder: folder, journalPath: journalPath)
        comments = job.comments
            ? try CommentSpill(path: folder + "/" + (journalPath as NSString).deletingLastPathComponent + "/comments.jsonl")
            : nil
        // Running again: the shard is not done until this run writes its part.
        if let layout { store.remove(layout.summaryPath) }
    }

    /// Where a shard downloads the original that goes to `path` (its partial files are its own, even when
    /// another shard fetches the same photo; the complete file is published by rename), or nil: a whole
    /// job downloads straight to its place.
    func stagingPath(of path: String) -> String? {
        layout.map { folder + "/" + $0.stagingFolder + "/" + (path as NSString).lastPathComponent }
    }

    /// Hands the journal to a store away from this machine every `store.checkpointInterval`, so a run
    /// elsewhere resumes from it, until the task is cancelled; nil for a store that needs none (a folder).
    func checkpoints(to store: any GalleryStore) -> Task<Void, Never>? {
        store.checkpointInterval.map { [journalPath] interval in
            Task {
                while (try? await Task.sleep(for: interval)) != nil {
                    try? await store.checkpoint(journal: journalPath)
                }
            }
        }
    }
}
