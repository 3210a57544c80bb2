import Foundation
import Glibc

/// Writes a gallery folder's `index.html`, photo pages and `gallery.json` from entries handed in
/// one at a time, in listing order, so that neither a run nor a merge of shards holds the gallery
/// in memory: pages are written as their photo arrives, the manifest and the index's two card
/// lists are streamed into temporary files, and ``finish()`` publishes each file by rename
/// (the index last: once it is there, everything it links to is).
///
/// Memory kept per photo: the name of its page, to delete stale pages at the end.
final class GalleryOutput {
    let folder: String
    let title: String
    private let manifest: StreamedFile
    private let doneCards: StreamedFile
    private let failedCards: StreamedFile
    private let source: String
    private var pages: Set<String> = []
    private(set) var done = 0
    private(set) var failed = 0

    /// Starts the files of the gallery at `folder`; `source` and `generated` go into the manifest.
    init(folder: String, title: String, source: String, generated: Date) throws(GalleryError) {
        self.folder = folder
        self.title = title
        self.source = source
        let work = folder + "/.fetch-gallery/"
        manifest = try StreamedFile(path: folder + "/" + GalleryNaming.manifestPath)
        doneCards = try StreamedFile(path: work + "index-done.html")
        failedCards = try StreamedFile(path: work + "index-failed.html")
        try manifest.write("{\n  \"generated\" : " + (try Self.encode(generated.formatted(.iso8601))) + ",\n  \"photos\" : [")
    }

    /// Adds the next photo: its page (when complete), its manifest entry and its index card.
    func add(_ entry: GalleryState.Entry, comments: [Comment]) throws(GalleryError) {
        let photo = try Self.encode(GalleryManifest.Photo(entry: entry))
        // JSONEncoder's pretty layout of an array element: indented two levels, comma-separated.
        let indented = photo.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        try manifest.write((done + failed == 0 ? "\n" : ",\n") + indented)
        if entry.isComplete {
            let path = GalleryNaming.photoPagePath(id: entry.metadata.id, name: entry.metadata.name)
            try AtomicFile.writeIfChanged(PhotoDetailPage(entry: entry, comments: comments).render(), to: folder + "/" + path)
            pages.insert(path)
            try doneCards.write(IndexPage.card(entry).render())
            done += 1
        } else {
            try failedCards.write(IndexPage.failedCard(entry).render())
            failed += 1
        }
    }

    /// Publishes the manifest, removes stale photo pages, then publishes the index.
    func finish() throws(GalleryError) {
        try manifest.write(done + failed == 0 ? "\n\n  ],\n" : "\n  ],\n")
        try manifest.write("  \"source\" : " + (try Self.encode(source)) + "\n}")
        try manifest.commit()
        removeStalePages()
        try doneCards.commit()
        try failedCards.commit()
        let pieces = IndexPage.shell(title: title, done: done, failed: failed)
        let index = try StreamedFile(path: folder + "/" + GalleryNaming.indexPath)
        try index.write(pieces[0])
        try index.append(contentsOf: doneCards.path)
        try index.write(pieces[1])
        try index.append(contentsOf: failedCards.path)
        try index.write(pieces[2])
        try index.commit(onlyIfChanged: true)
        unlink(doneCards.path)
        unlink(failedCards.path)
    }

    /// `value` as JSONEncoder writes it in the whole-manifest form (pretty, sorted keys).
    private static func encode(_ value: some Encodable) throws(GalleryError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .encoding(path: GalleryNaming.manifestPath, reason: String(describing: error))
        }
    }

    /// Deletes photo pages written earlier that no finished photo has now (the photo was renamed on
    /// the server, or is no longer complete). Only names of the pages' own form are touched.
    private func removeStalePages() {
        let folderPath = folder + "/" + GalleryNaming.pagesFolder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { return }
        for name in names where GalleryWriter.isPageName(name) && !pages.contains(GalleryNaming.pagesFolder + "/" + name) {
            unlink(folderPath + "/" + name)
        }
    }
}
