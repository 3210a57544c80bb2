import Foundation
import GallerySync

/// Writes the human and machine views of a gallery folder from its `GalleryState`:
/// `index.html`, one page per finished photo, and `gallery.json`.
///
/// Called at the end of a run and on Ctrl-C; every file is published whole by rename
/// (``GalleryOutput``, which the merge of shards uses too), so an interrupted regeneration leaves
/// the previous version of each file in place.
public struct GalleryWriter: Sendable {
    /// The gallery folder.
    public var folder: String
    /// Title of the index page.
    public var title: String
    /// What the photos came from, recorded in the manifest.
    public var source: String
    /// Index page size and what the photo pages show.
    public var pageOptions = GalleryPageOptions()
    /// Where the pages are rendered, a batch at a time: every core by default; a run passes its
    /// worker pool, so `--workers` bounds this work too.
    public var parallel: any ParallelRunner = DispatchParallel()
    /// Where each finished file goes: the folder itself by default (``LocalFolderStore``).
    public var store: (any GalleryStore)? = nil

    /// A writer for the gallery in `folder`, titled `title`; `source` names where the photos came from.
    public init(folder: String, title: String = "Gallery", source: String) {
        self.folder = folder
        self.title = title
        self.source = source
    }

    /// Regenerates the manifest, the index and the photo pages.
    ///
    /// - Parameters:
    ///   - state: the journal's state: which photos, originals and thumbnails there are.
    ///   - comments: comments to show, by photo id; photos without are fine.
    ///   - generated: the time stamped into the manifest.
    public func write(_ state: GalleryState, comments: [Int: [Comment]] = [:], generated: Date = Date()) throws(GalleryError) {
        let output = try GalleryOutput(folder: folder, title: title, source: source, generated: generated,
                                       options: pageOptions, parallel: parallel, store: store)
        output.findDuplicates { visit in state.orderedEntries.forEach(visit) }
        for entry in state.orderedEntries {
            try output.add(entry, comments: comments[entry.metadata.id] ?? [])
        }
        try output.finish()
    }

    /// Regenerates the manifest, the index and the photo pages from `journal`, one entry at a time
    /// (the gallery is never in memory whole).
    ///
    /// - Parameters:
    ///   - journal: the run's journal.
    ///   - comments: the comments of a photo, by id (empty for none).
    ///   - generated: the time stamped into the manifest.
    public func write(_ journal: Journal, comments: (Int) -> [Comment] = { _ in [] },
                      generated: Date = Date()) throws(GalleryError) {
        let output = try GalleryOutput(folder: folder, title: title, source: source, generated: generated,
                                       options: pageOptions, parallel: parallel, store: store)
        try output.findDuplicates { (visit) throws(GalleryError) in try journal.forEachEntry(parallel: parallel) { visit($0) } }
        try journal.forEachEntry(parallel: parallel) { entry throws(GalleryError) in
            try output.add(entry, comments: comments(entry.metadata.id))
        }
        try output.finish()
    }

    /// Whether `name` has the form of a photo page this writer makes (`ID-slug.html`, `nID-slug.html`);
    /// only those are deleted when stale, anything else in `pages/` is left alone.
    static func isPageName(_ name: String) -> Bool {
        guard name.hasSuffix(".html") else { return false }
        var digits = Substring(name)
        if digits.hasPrefix("n") { digits = digits.dropFirst() }
        let id = digits.prefix { $0.isASCII && $0.isNumber }
        return !id.isEmpty && digits.dropFirst(id.count).hasPrefix("-")
    }
}
