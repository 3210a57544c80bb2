/// `index.html` (and `index-2.html`, ... when paged): a responsive grid of thumbnails with captions,
/// each linking to the photo's own page. Failed photos are listed with their reason.
///
/// Every thumbnail has its pixel `width`/`height` (nothing jumps while loading) and a `srcset` of every
/// size made with a `sizes` that matches the grid's columns (``GalleryStyle``), so the browser fetches
/// the smallest thumbnail that is sharp at the screen's pixel density. The first row or two load at
/// once, the rest lazily. Until a thumbnail arrives its cell shows the photo's ThumbHash, blurred
/// (``Placeholder``).
struct IndexPage {
    var title: String
    var state: GalleryState

    func render() -> String {
        let entries = state.orderedEntries
        let done = entries.filter(\.isComplete)
        let failed = entries.filter { !$0.isComplete }
        let pieces = Self.shell(title: title, done: done.count, failed: failed.count)
        var out = pieces[0]
        for (position, entry) in done.enumerated() { out += Self.card(entry, position: position).render() }
        out += pieces[1]
        for entry in failed { out += Self.failedCard(entry).render() }
        return out + pieces[2]
    }

    /// The index page `page` (from 1): `index.html` is the first and the entry point.
    static func path(page: Int) -> String {
        page <= 1 ? GalleryNaming.indexPath : "index-\(page).html"
    }

    /// Index page `page` of `pages` around its two lists of cards, in three pieces: up to the finished
    /// photos' cards, between them and the failed ones' cards, and after. Lets a writer stream the cards
    /// (a gallery of a million photos is never held in memory). `done` and `failed` count the whole
    /// gallery; `onPage` says which kinds of card this page has. With one page this is the page
    /// ``render()`` writes; with more, each page says which it is and links to its neighbours.
    static func shell(title: String, done: Int, failed: Int, page: Int = 1, pages: Int = 1,
                      failedOnPage: Bool? = nil) -> [String] {
        // NUL marks the slots: the shell holds only the title (ours) and the counts, never a NUL.
        let slot = Node.trusted(TrustedHTML("\u{0}"))
        let title = title.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
        let counts = "\(done) photos" + (failed == 0 ? "" : ", \(failed) failed")
        var body: [Node] = [
            .element("h1", children: [.text(title)]),
            .element("p", attributes: ["class": "meta"], children: [
                .text(pages > 1 ? counts + " · page \(page) of \(pages)" : counts),
            ]),
        ]
        if pages > 1 { body.append(navigation(page: page, pages: pages)) }
        body.append(.element("ul", attributes: ["class": "grid"], children: [slot]))
        if failedOnPage ?? (failed > 0) {
            body.append(.element("h2", children: [.text("Failed")]))
            body.append(.element("ul", attributes: ["class": "grid"], children: [slot]))
        } else {
            body.append(slot)
        }
        if pages > 1 { body.append(navigation(page: page, pages: pages)) }
        let pieces = GalleryDocument.page(title: title, body: body).split(separator: 0, omittingEmptySubsequences: false)
        precondition(pieces.count == 3, "the index shell must have two card slots")
        return pieces.map { String(decoding: $0, as: UTF8.self) }
    }

    /// First, previous, next and last links of a paged index.
    private static func navigation(page: Int, pages: Int) -> Node {
        func link(_ text: String, _ target: Int, rel: String? = nil) -> Node {
            target == page || target < 1 || target > pages
                ? .element("span", children: [.text(text)])
                : .element("a", attributes: ["href": SafeURL.relative(path(page: target)), "rel": rel], children: [.text(text)])
        }
        return .element("nav", attributes: ["class": "pages", "aria-label": "Index pages"], children: [
            link("« First", 1), .text(" "), link("‹ Previous", page - 1, rel: "prev"), .text(" "),
            .element("span", attributes: ["class": "at"], children: [.text("Page \(page) of \(pages)")]), .text(" "),
            link("Next ›", page + 1, rel: "next"), .text(" "), link("Last »", pages),
        ])
    }

    /// Cards at the top of a page whose thumbnails load at once: two rows of the widest grid (six
    /// columns), so everything in the first screen starts loading before layout; the rest are lazy.
    static let eagerCards = 12

    /// The `sizes` of the thumbnails: a card's width in each column band of ``GalleryStyle``'s grid
    /// (the viewport less the body's padding and the gaps, over the columns).
    static let thumbnailSizes = "(min-width: 1600px) calc((100vw - 84px) / 6), (min-width: 1200px) calc((100vw - 72px) / 5), "
        + "(min-width: 900px) calc((100vw - 60px) / 4), (min-width: 600px) calc((100vw - 48px) / 3), calc((100vw - 36px) / 2)"

    /// The card of a finished photo; `position` is its place on its index page (from 0).
    static func card(_ entry: GalleryState.Entry, position: Int = .max, sourceFormats: [ImageFormat] = []) -> Node {
        let meta = entry.metadata
        let name = GalleryDocument.displayName(meta.name)
        let link = SafeURL.relative(GalleryNaming.photoPagePath(id: meta.id, name: meta.name))
        return .element("li", attributes: ["class": "card", "id": anchor(meta.id)], children: [
            .element("figure", children: [
                .element("a", attributes: ["href": link, "tabindex": "-1", "aria-hidden": "true"], children: [
                    image(entry, alt: name, lazy: position >= eagerCards, sourceFormats: sourceFormats),
                ]),
                .element("figcaption", children: [
                    .element("a", attributes: ["href": link], children: [GalleryDocument.isolated(name, class: "name")]),
                    .element("span", attributes: ["class": "meta"], children: [
                        CreditLine.short(meta),
                        .text(" · ★ " + GalleryDocument.rating(meta.rating)),
                    ]),
                ]),
            ]),
        ])
    }

    /// The smallest thumbnail as `src`, every size in `srcset`; the original when no
    /// thumbnail was made.
    private static func image(_ entry: GalleryState.Entry, alt: String, lazy: Bool, sourceFormats: [ImageFormat]) -> Node {
        let loading = lazy ? "lazy" : "eager"
        let original = (entry.original?.width ?? entry.metadata.width, entry.original?.height ?? entry.metadata.height)
        let sizes = entry.thumbnails.keys.sorted()
        guard let smallest = sizes.first.flatMap({ entry.thumbnails[$0] }) else {
            return .element("img", attributes: [
                "src": entry.original.map { SafeURL.relative($0.path) },
                "alt": alt, "loading": loading, "decoding": "async",
                "width": original.0.map(String.init), "height": original.1.map(String.init),
            ])
        }
        let size = GalleryDocument.dimensions(of: smallest, original: original)
        let srcset = sizes.count > 1
            ? sizes.map { "\(SafeURL.relative(entry.thumbnails[$0]!.path)) \(widthDescriptor(entry.thumbnails[$0]!, original))w" }
                .joined(separator: ", ")
            : nil
        let img = Node.element("img", attributes: [
            "src": SafeURL.relative(smallest.path),
            "srcset": srcset,
            "sizes": srcset == nil ? nil : thumbnailSizes,
            "alt": alt, "loading": loading, "decoding": "async",
            "width": size.map { String($0.0) }, "height": size.map { String($0.1) },
            "style": Placeholder.style(entry.original),
        ])
        let candidates = sizes.map { (path: entry.thumbnails[$0]!.path, width: Optional(widthDescriptor(entry.thumbnails[$0]!, original))) }
        return PictureSources.wrap(img, candidates: candidates, formats: sourceFormats, sizes: thumbnailSizes, depth: 0)
    }

    private static func widthDescriptor(_ thumbnail: ThumbnailFile, _ original: (Int?, Int?)) -> Int {
        GalleryDocument.dimensions(of: thumbnail, original: original)?.0 ?? thumbnail.size
    }

    /// The id of a photo's card, so a photo page's way back lands on it (`index-2.html#p245`).
    static func anchor(_ id: Int) -> String { "p\(id)" }

    static func failedCard(_ entry: GalleryState.Entry) -> Node {
        .element("li", attributes: ["class": "card"], children: [
            .element("div", attributes: ["class": "failed"], children: [
                GalleryDocument.isolated(GalleryDocument.displayName(entry.metadata.name), class: "name"),
                .text(entry.failure ?? GalleryManifest.incompleteReason),
            ]),
        ])
    }
}
