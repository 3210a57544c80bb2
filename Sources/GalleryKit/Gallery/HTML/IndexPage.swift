/// `index.html`: a responsive grid of lazy-loaded thumbnails with captions, each linking to
/// the photo's own page. Failed photos are listed with their reason.
struct IndexPage {
    var title: String
    var state: GalleryState

    func render() -> String {
        let entries = state.orderedEntries
        let done = entries.filter(\.isComplete)
        let failed = entries.filter { !$0.isComplete }
        let pieces = Self.shell(title: title, done: done.count, failed: failed.count)
        var out = pieces[0]
        for entry in done { out += Self.card(entry).render() }
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
        let pieces = GalleryDocument.page(title: title, body: body).split(separator: "\u{0}", omittingEmptySubsequences: false)
        precondition(pieces.count == 3, "the index shell must have two card slots")
        return pieces.map(String.init)
    }

    /// First, previous, next and last links of a paged index.
    private static func navigation(page: Int, pages: Int) -> Node {
        func link(_ text: String, _ target: Int) -> Node {
            target == page || target < 1 || target > pages
                ? .element("span", children: [.text(text)])
                : .element("a", attributes: ["href": SafeURL.relative(path(page: target))], children: [.text(text)])
        }
        return .element("nav", attributes: ["class": "pages"], children: [
            link("« First", 1), .text(" "), link("‹ Previous", page - 1), .text(" "),
            .element("span", children: [.text("\(page) / \(pages)")]), .text(" "),
            link("Next ›", page + 1), .text(" "), link("Last »", pages),
        ])
    }

    static func card(_ entry: GalleryState.Entry) -> Node {
        let meta = entry.metadata
        let name = GalleryDocument.displayName(meta.name)
        let link = SafeURL.relative(GalleryNaming.photoPagePath(id: meta.id, name: meta.name))
        return .element("li", attributes: ["class": "card"], children: [
            .element("figure", children: [
                .element("a", attributes: ["href": link], children: [image(entry, alt: name)]),
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
    private static func image(_ entry: GalleryState.Entry, alt: String) -> Node {
        let original = (entry.original?.width ?? entry.metadata.width, entry.original?.height ?? entry.metadata.height)
        let sizes = entry.thumbnails.keys.sorted()
        guard let smallest = sizes.first.flatMap({ entry.thumbnails[$0] }) else {
            return .element("img", attributes: [
                "src": entry.original.map { SafeURL.relative($0.path) },
                "alt": alt, "loading": "lazy", "decoding": "async",
                "width": original.0.map(String.init), "height": original.1.map(String.init),
            ])
        }
        let size = GalleryDocument.dimensions(of: smallest, original: original)
        let srcset = sizes.count > 1
            ? sizes.map { "\(SafeURL.relative(entry.thumbnails[$0]!.path)) \(widthDescriptor(entry.thumbnails[$0]!, original))w" }
                .joined(separator: ", ")
            : nil
        return .element("img", attributes: [
            "src": SafeURL.relative(smallest.path),
            "srcset": srcset,
            "sizes": srcset == nil ? nil : "(max-width: 440px) 50vw, 240px",
            "alt": alt, "loading": "lazy", "decoding": "async",
            "width": size.map { String($0.0) }, "height": size.map { String($0.1) },
        ])
    }

    private static func widthDescriptor(_ thumbnail: ThumbnailFile, _ original: (Int?, Int?)) -> Int {
        GalleryDocument.dimensions(of: thumbnail, original: original)?.0 ?? thumbnail.size
    }

    static func failedCard(_ entry: GalleryState.Entry) -> Node {
        .element("li", attributes: ["class": "card"], children: [
            .element("div", attributes: ["class": "failed"], children: [
                GalleryDocument.isolated(GalleryDocument.displayName(entry.metadata.name), class: "name"),
                .text(entry.failure ?? GalleryManifest.incompleteReason),
            ]),
        ])
    }
}
