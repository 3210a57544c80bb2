import Foundation

/// Writes the human and machine views of a gallery folder from its `GalleryState`:
/// `index.html`, one page per finished photo, and `gallery.json`.
///
/// Called at the end of a run and on Ctrl-C; every file goes through `AtomicFile`, so an
/// interrupted regeneration leaves the previous version of each file in place.
public struct GalleryWriter: Sendable {
    /// The gallery folder.
    public var folder: String
    /// Title of the index page.
    public var title: String
    /// What the photos came from, recorded in the manifest.
    public var source: String

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
        for entry in state.orderedEntries where entry.isComplete {
            let path = GalleryNaming.photoPagePath(id: entry.metadata.id, name: entry.metadata.name)
            let page = PhotoDetailPage(entry: entry, comments: comments[entry.metadata.id] ?? [])
            try AtomicFile.write(page.render(), to: folder + "/" + path)
        }
        let manifest = GalleryManifest(state: state, source: source, generated: generated)
        try AtomicFile.write(try manifest.encoded(), to: folder + "/" + GalleryNaming.manifestPath)
        // The index last: once it is there, everything it links to is.
        try AtomicFile.write(IndexPage(title: title, state: state).render(), to: folder + "/" + GalleryNaming.indexPath)
    }
}
