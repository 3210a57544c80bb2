import Foundation
import GallerySystem

/// What a run opens in the gallery folder before its first photo, and what its photo tasks write into:
/// the folders the downloads need, the journal (a shard's own), the comments spill (`--comments`), and
/// each original's place (``place(of:recorded:in:)``).
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
    /// The gallery was a folder with no photos in it when the run began (no `photos/`, a journal with no
    /// record): no original can be on disk but what this run writes, so a new photo's place is not looked
    /// for (``place(of:recorded:in:)``). Never so for a store that may hold files its folder does not
    /// (``GalleryStore/holdsOnlyTheFolder``).
    let startedEmpty: Bool

    /// Makes the folders, opens the journal and the spill, and (a shard) withdraws the shard's summary.
    init(job: GalleryJob, store: any GalleryStore) throws(GalleryError) {
        folder = job.folder
        layout = job.shard.map { ShardLayout(folder: job.folder, shard: $0) }
        journalPath = layout?.journalPath ?? GalleryNaming.journalPath
        // The engine writes originals straight into photos/ (a shard: into its staging folder,
        // then renames them there); thumbnails make their own folders.
        let hadPhotos = POSIX.exists(folder + "/photos")
        try POSIX.makeDirectories(folder + "/photos")
        if let layout { try POSIX.makeDirectories(folder + "/" + layout.stagingFolder) }
        journal = try Journal(folder: folder, journalPath: journalPath)
        startedEmpty = store.holdsOnlyTheFolder && !hadPhotos && journal.count == 0
        comments = job.comments
            ? try CommentSpill(path: folder + "/" + PathText.directory(journalPath) + "/comments.jsonl")
            : nil
        // Running again: the shard is not done until this run writes its part.
        if let layout { store.remove(layout.summaryPath) }
    }

    /// Where the original of `selected` lives: the path the journal records (`recorded`), else its fanned-out
    /// path, unless a gallery made before the fan-out already holds it at `photos/ID-slug.EXT` (then it is
    /// used there, not fetched again). The store is asked whether it holds a file there, unless the gallery
    /// started empty (``startedEmpty``).
    func place(of selected: SelectedPhoto, recorded: OriginalFile?, in store: any GalleryStore) -> OriginalPlace {
        let (id, name) = (selected.photo.id, selected.photo.name)
        func place(_ path: String, stored: Bool, new: Bool = false) -> OriginalPlace {
            // A shard's own staging folder; the two share the file name.
            let staging = layout.map { folder + "/" + $0.stagingFolder + "/" + PathText.lastComponent(path) }
            return OriginalPlace(folder: folder, path: path, stored: stored, staging: staging, id: id, name: name, new: new)
        }
        if let recorded { return place(recorded.path, stored: true) }
        let path = GalleryNaming.originalPath(id: id, name: name, extension: OriginalPlace.fileExtension(of: selected.imageURL))
        if startedEmpty { return place(path, stored: false, new: true) }
        guard store.size(of: path) == nil else { return place(path, stored: true) }
        // The two paths share their file name: "photos/BBB/NAME" and "photos/NAME".
        let legacy = "photos/" + PathText.lastComponent(path)
        let legacyStored = store.size(of: legacy) != nil
        return place(legacyStored ? legacy : path, stored: legacyStored)
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
