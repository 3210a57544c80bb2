/// `index.html`: a responsive grid of lazy-loaded thumbnails with captions, each linking to
/// the photo's own page. Failed photos are listed with their reason.
struct IndexPage {
    var title: String
    var state: GalleryState

    func render() -> String {
        let entries = state.orderedEntries
        let done = entries.filter(\.isComplete)
        let failed = entries.filter { !$0.isComplete }
        var body: [Node] = [
            .element("h1", children: [.text(title)]),
            .element("p", attributes: ["class": "meta"], children: [
                .text("\(done.count) photos" + (failed.isEmpty ? "" : ", \(failed.count) failed")),
            ]),
            .element("ul", attributes: ["class": "grid"], children: done.map(card)),
        ]
        if !failed.isEmpty {
            body.append(.element("h2", children: [.text("Failed")]))
            body.append(.element("ul", attributes: ["class": "grid"], children: failed.map(failedCard)))
        }
        return GalleryDocument.page(title: title, body: body)
    }

    private func card(_ entry: GalleryState.Entry) -> Node {
        let meta = entry.metadata
        let name = GalleryDocument.displayName(meta.name)
        let link = SafeURL.relative(GalleryNaming.photoPagePath(id: meta.id, name: meta.name))
        return .element("li", attributes: ["class": "card"], children: [
            .element("figure", children: [
                .element("a", attributes: ["href": link], children: [image(entry, alt: name)]),
                .element("figcaption", children: [
                    .element("a", attributes: ["href": link], children: [GalleryDocument.isolated(name, class: "name")]),
                    .element("span", attributes: ["class": "meta"], children: [
                        GalleryDocument.isolated(meta.photographer ?? "unknown"),
                        .text(" · ★ " + GalleryDocument.rating(meta.rating)),
                    ]),
                ]),
            ]),
        ])
    }

    /// The smallest thumbnail as `src`, every size in `srcset`; the original when no
    /// thumbnail was made.
    private func image(_ entry: GalleryState.Entry, alt: String) -> Node {
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

    private func widthDescriptor(_ thumbnail: ThumbnailFile, _ original: (Int?, Int?)) -> Int {
        GalleryDocument.dimensions(of: thumbnail, original: original)?.0 ?? thumbnail.size
    }

    private func failedCard(_ entry: GalleryState.Entry) -> Node {
        .element("li", attributes: ["class": "card"], children: [
            .element("div", attributes: ["class": "failed"], children: [
                GalleryDocument.isolated(GalleryDocument.displayName(entry.metadata.name), class: "name"),
                .text(entry.failure ?? GalleryManifest.incompleteReason),
            ]),
        ])
    }
}
