import Foundation
import Glibc
import GallerySync

/// Writes a gallery folder's index pages, photo pages and `gallery.json` from entries handed in
/// one at a time, in listing order, so that neither a run nor a merge of shards holds the gallery
/// in memory: a photo's page is written once its next neighbour is known (a batch of pages at a time,
/// rendered on every core), the manifest and the cards are streamed into temporary files, and ``finish()`` publishes each file by rename
/// (the index last: once `index.html` is there, everything it links to is).
///
/// The index is paged, ``photosPerIndexPage`` cards a page (finished photos first, then the failed
/// ones), `index.html` first. Memory kept per photo: a hash of its page's path (8 bytes, in a set), to
/// delete stale pages; a collision could only leave a stale page in place.
final class GalleryOutput {
    /// Cards on one index page.
    static let photosPerIndexPage = GalleryPageOptions().photosPerIndexPage

    let folder: String
    /// Where each finished file goes (``GalleryStore/publish(_:)``); stale pages are removed from it.
    let store: any GalleryStore
    let title: String
    let perPage: Int
    let options: GalleryPageOptions
    private let source: String
    /// Renders each batch's pages and entries.
    private let parallel: any ParallelRunner
    private let manifest: StreamedFile
    private let doneCards: StreamedFile
    private let failedCards: StreamedFile
    private var pages: Set<Int> = []
    /// The last finished photo, waiting for its next neighbour before its page can be made.
    private var pending: PageWork?
    /// Photos added since the last ``flush()``: their manifest entries and cards, in order (a shown
    /// photo's card at `position`, none for a copy another photo stands for, the failed list's otherwise).
    private var added: [(entry: GalleryState.Entry, position: Int?, membership: DuplicateGrouping.Membership?)] = []
    /// Photo pages whose neighbours are both known, to be made at the next ``flush()``.
    private var pageWork: [PageWork] = []
    /// Manifest entries written so far (the first has no comma before it).
    private var manifestEntries = 0
    private(set) var done = 0
    private(set) var failed = 0
    /// Of ``failed``, those their site opted out of AI use (not failures of the run).
    private(set) var optedOut = 0
    /// Finished photos not shown because another photo of their group is (see ``findDuplicates``).
    private(set) var grouped = 0
    /// Copies of one photo, by id (empty until ``findDuplicates`` runs).
    private var duplicates = DuplicateGrouping()
    /// The entries of every photo in a group, for the credits on the shown photo's page.
    private var copies: [Int: GalleryState.Entry] = [:]

    /// Photos rendered together, on every core: enough to keep the cores busy, few enough that
    /// memory does not grow with the gallery.
    static let batchSize = 256

    /// One photo page to make: the photo, its neighbours and the index page that lists it.
    private struct PageWork {
        var entry: GalleryState.Entry
        var comments: [Comment]
        var previous: GalleryState.Entry?
        var next: GalleryState.Entry?
        var indexPage: Int
        /// The other photos of its group of copies, credited on its page.
        var copies: [(entry: GalleryState.Entry, membership: DuplicateGrouping.Membership)] = []
    }

    /// What rendering one piece of a batch produced.
    private enum Rendered {
        case record(manifest: [UInt8], card: [UInt8]?, complete: Bool)
        case page(path: String)
        case failure(GalleryError)
    }

    /// Starts the files of the gallery at `folder`; `source` and `generated` go into the manifest.
    init(folder: String, title: String, source: String, generated: Date,
         options: GalleryPageOptions = GalleryPageOptions(),
         parallel: any ParallelRunner = DispatchParallel(), store: (any GalleryStore)? = nil) throws(GalleryError) {
        self.folder = folder
        self.store = store ?? LocalFolderStore(folder: folder)
        self.parallel = parallel
        self.title = title
        self.source = source
        self.options = options
        perPage = options.photosPerIndexPage
        let work = folder + "/.fetch-gallery/"
        manifest = try StreamedFile(path: folder + "/" + GalleryNaming.manifestPath)
        doneCards = try StreamedFile(path: work + "index-done.cards")
        failedCards = try StreamedFile(path: work + "index-failed.cards")
        try manifest.write(GalleryManifest.opening(generated: generated.formatted(.iso8601)))
    }

    /// Groups copies of one photo before the first ``add(_:comments:)``: `forEach` hands over every entry
    /// in the order they will be added, and is called up to four times (up to three by the grouping, see
    /// ``DuplicateGrouping``, then once for the grouped photos' credits), so memory holds a few bytes a
    /// photo and the grouped photos' entries, never the gallery.
    func findDuplicates<E: Error>(_ forEach: ((GalleryState.Entry) -> Void) throws(E) -> Void) throws(E) {
        duplicates = try DuplicateGrouping(mode: options.duplicates, forEach: forEach)
        guard !duplicates.groups.isEmpty else { return }
        try forEach { entry in
            if duplicates[entry.metadata.id] != nil { copies[entry.metadata.id] = entry }
        }
    }

    /// Adds the next photo: its manifest entry, its index card, and the page of the finished photo before it.
    /// The work is queued and done a batch at a time on every core (see ``flush()``); the files come
    /// out the same as if each photo were written as it is added.
    func add(_ entry: GalleryState.Entry, comments: [Comment]) throws(GalleryError) {
        let id = entry.metadata.id
        let membership = entry.isComplete ? duplicates[id] : nil
        if let membership, membership.shown != id {
            added.append((entry, nil, membership))  // in the manifest only: its group's shown photo has the card and page
            grouped += 1
        } else if entry.isComplete {
            added.append((entry, done % perPage, membership))
            let previous = settlePending(next: entry)
            pending = PageWork(entry: entry, comments: comments, previous: previous, next: nil,
                               indexPage: done / perPage + 1,
                               copies: (membership?.members ?? []).filter { $0 != id }.compactMap { copies[$0] }
                                   .map { ($0, duplicates[$0.metadata.id]!) })
            done += 1
        } else {
            added.append((entry, nil, nil))
            failed += 1
            if entry.isOptedOut { optedOut += 1 }
        }
        if added.count >= Self.batchSize { try flush() }
    }

    /// Queues the waiting photo's page, now that its next neighbour is known; returns its entry, the
    /// previous neighbour of the next page.
    private func settlePending(next: GalleryState.Entry?) -> GalleryState.Entry? {
        guard var work = pending else { return nil }
        work.next = next
        pageWork.append(work)
        pending = nil
        return work.entry
    }

    /// Renders the queued manifest entries, cards and photo pages on every core (each page is written
    /// to its own file by the thread that rendered it), then appends the entries and cards in order.
    private func flush() throws(GalleryError) {
        let records = added, pagesToMake = pageWork
        added.removeAll(keepingCapacity: true)
        pageWork.removeAll(keepingCapacity: true)
        let (folder, options, store) = (self.folder, self.options, self.store)
        let rendered = parallel.map(records.count + pagesToMake.count) { i -> Rendered in
            do throws(GalleryError) {
                if i < records.count {
                    let (entry, position, membership) = records[i]
                    var record = GalleryManifest.Photo(entry: entry, showLocation: options.showLocation)
                    if let membership { record.group(membership) }
                    let indented = try record.element()
                    // Cards are NUL-separated: rendering turns every control character into U+FFFD.
                    let isCopy = membership.map { $0.shown != entry.metadata.id } ?? false
                    // Index cards get the thumbnails only, not the display rendition.
                    var shown = entry
                    if options.displaySize > 0, shown.thumbnails.count > 1 { shown.thumbnails[options.displaySize] = nil }
                    let card = isCopy ? nil : position.map { IndexPage.card(shown, position: $0, sourceFormats: options.sourceFormats) }
                        ?? IndexPage.failedCard(entry)
                    return .record(manifest: indented, card: card.map { card in
                        var bytes: [UInt8] = []
                        bytes.reserveCapacity(1024)
                        card.render(into: &bytes)
                        bytes.append(0)
                        return bytes
                    }, complete: position != nil)
                }
                let work = pagesToMake[i - records.count]
                let path = GalleryNaming.photoPagePath(id: work.entry.metadata.id, name: work.entry.metadata.name)
                let page = PhotoDetailPage(entry: work.entry, comments: work.comments, previous: work.previous,
                                           next: work.next, indexPath: IndexPage.path(page: work.indexPage),
                                           showLocation: options.showLocation, copies: work.copies,
                                           displaySize: options.displaySize, sourceFormats: options.sourceFormats)
                try AtomicFile.writeIfChanged(page.render(), to: folder + "/" + path)
                store.publish(path)
                return .page(path: path)
            } catch {
                return .failure(error)
            }
        }
        for piece in rendered {
            switch piece {
            case .record(let entry, let card, let complete):
                try manifest.write(GalleryManifest.separator(before: manifestEntries) + entry)
                manifestEntries += 1
                if let card { try (complete ? doneCards : failedCards).write(card) }
            case .page(let path):
                pages.insert(path.hashValue)
            case .failure(let error):
                throw error
            }
        }
    }

    /// Publishes the manifest, removes stale photo and index pages, then publishes the index pages.
    func finish() throws(GalleryError) {
        _ = settlePending(next: nil)
        try flush()
        try manifest.write(GalleryManifest.closing(source: source, isEmpty: manifestEntries == 0))
        try manifest.commit()
        store.publish(GalleryNaming.manifestPath)
        removeStalePages()
        try AtomicFile.writeIfChanged(ViewerScript.source, to: folder + "/" + ViewerScript.path)
        store.publish(ViewerScript.path)
        try doneCards.commit()
        try failedCards.commit()
        defer {
            POSIX.remove(doneCards.path)
            POSIX.remove(failedCards.path)
        }
        let indexPages = max(1, (done + failed + perPage - 1) / perPage)
        removeStaleIndexPages(beyond: indexPages)
        let cards = CardReader(paths: [doneCards.path, failedCards.path])
        // index.html, the entry point, is published last; each later page as soon as it is written
        // (holding them all open would cost a descriptor and a buffer per page).
        var entryPoint: StreamedFile?
        for page in 1...indexPages {
            let first = (page - 1) * perPage
            let doneHere = max(0, min(done, first + perPage) - first)
            let failedHere = min(done + failed, first + perPage) - max(done, first)
            let pieces = IndexPage.shell(title: title, done: done, failed: failed, page: page, pages: indexPages,
                                         failedOnPage: failedHere > 0)
            let file = try StreamedFile(path: folder + "/" + IndexPage.path(page: page))
            try file.write(pieces[0])
            for _ in 0..<doneHere { try file.write(try cards.next()) }
            try file.write(pieces[1])
            for _ in 0..<max(0, failedHere) { try file.write(try cards.next()) }
            try file.write(pieces[2])
            if page == 1 { entryPoint = file } else {
                try file.commit(onlyIfChanged: true)
                store.publish(IndexPage.path(page: page))
            }
        }
        try entryPoint?.commit(onlyIfChanged: true)
        store.publish(IndexPage.path(page: 1))
    }

    /// Deletes photo pages written earlier that no finished photo has now (the photo was renamed on
    /// the server, or is no longer complete), and pages of the layout before the fan-out
    /// (`pages/ID-slug.html`). Only names of the pages' own form are touched.
    private func removeStalePages() {
        let root = GalleryNaming.pagesFolder
        guard let names = POSIX.names(in: folder + "/" + root) else { return }
        for name in names {
            if GalleryWriter.isPageName(name) {
                store.remove(root + "/" + name)
            } else if name.count == 3, name.allSatisfy(\.isNumber) {
                let bucket = root + "/" + name
                let inside = POSIX.names(in: folder + "/" + bucket) ?? []
                for page in inside where GalleryWriter.isPageName(page) && !pages.contains((bucket + "/" + page).hashValue) {
                    store.remove(bucket + "/" + page)
                }
            }
        }
    }

    /// Deletes `index-N.html` pages past the last one (the gallery shrank).
    private func removeStaleIndexPages(beyond last: Int) {
        var page = last + 1
        while POSIX.exists(folder + "/" + IndexPage.path(page: page)) {
            store.remove(IndexPage.path(page: page))
            page += 1
        }
    }
}
