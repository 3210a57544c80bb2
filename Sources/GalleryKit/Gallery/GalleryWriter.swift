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
        var pages: Set<String> = []
        for entry in state.orderedEntries where entry.isComplete {
            let path = GalleryNaming.photoPagePath(id: entry.metadata.id, name: entry.metadata.name)
            let page = PhotoDetailPage(entry: entry, comments: comments[entry.metadata.id] ?? [])
            try AtomicFile.writeIfChanged(page.render(), to: folder + "/" + path)
            pages.insert(path)
        }
        removeStalePages(keeping: pages)
        let manifest = GalleryManifest(state: state, source: source, generated: generated)
        try AtomicFile.write(try manifest.encoded(), to: folder + "/" + GalleryNaming.manifestPath)
        // The index last: once it is there, everything it links to is.
        try AtomicFile.writeIfChanged(IndexPage(title: title, state: state).render(), to: folder + "/" + GalleryNaming.indexPath)
    }

    /// Deletes photo pages this writer made earlier that no finished photo has now (the photo was renamed
    /// on the server, so its page name changed, or it is no longer complete). Only names of the pages'
    /// own form (`ID-slug.html`, `nID-slug.html`) are touched; anything else in `pages/` is left alone.
    private func removeStalePages(keeping current: Set<String>) {
        let folderPath = folder + "/" + GalleryNaming.pagesFolder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { return }
        for name in names where Self.isPageName(name) && !current.contains(GalleryNaming.pagesFolder + "/" + name) {
            unlink(folderPath + "/" + name)
        }
    }

    static func isPageName(_ name: String) -> Bool {
        guard name.hasSuffix(".html") else { return false }
        var digits = Substring(name)
        if digits.hasPrefix("n") { digits = digits.dropFirst() }
        let id = digits.prefix { $0.isASCII && $0.isNumber }
        return !id.isEmpty && digits.dropFirst(id.count).hasPrefix("-")
    }
}
