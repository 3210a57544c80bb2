/// `photos/ID-slug.html`: one photo at full size with its name, photographer, rating,
/// description, source link and comments, linking back to the index.
struct PhotoDetailPage {
    /// A photo next to this one in the gallery's order: its page and its name.
    struct Neighbour: Equatable {
        var path: String
        var name: String

        init(_ entry: GalleryState.Entry) {
            path = GalleryNaming.photoPagePath(id: entry.metadata.id, name: entry.metadata.name)
            name = GalleryDocument.displayName(entry.metadata.name)
        }
    }

    var entry: GalleryState.Entry
    var comments: [Comment]
    /// The finished photos before and after this one, linked from its page.
    var previous: Neighbour? = nil
    var next: Neighbour? = nil
    /// The index page that shows this photo's card.
    var indexPath = GalleryNaming.indexPath

    /// Pages live two folders below the root (`pages/BBB/ID-slug.html`).
    static let depth = 2

    func render() -> String {
        let meta = entry.metadata
        let name = GalleryDocument.displayName(meta.name)
        var body: [Node] = [
            .element("p", children: [
                .element("a", attributes: ["href": SafeURL.relative(indexPath, depth: Self.depth)], children: [
                    .text("← All photos"),
                ]),
            ]),
            .element("h1", children: [GalleryDocument.isolated(name)]),
        ]
        if let original = entry.original {
            body.append(.element("figure", attributes: ["class": "photo"], children: [
                .element("img", attributes: [
                    "src": SafeURL.relative(original.path, depth: Self.depth), "alt": name,
                    "width": (original.width ?? meta.width).map(String.init),
                    "height": (original.height ?? meta.height).map(String.init),
                ]),
            ]))
        }
        body.append(.element("p", attributes: ["class": "meta"], children: [
            CreditLine.full(meta),
            .text(" · rating " + GalleryDocument.rating(meta.rating)),
        ]))
        if let description = meta.description, !description.isEmpty {
            body.append(.element("p", attributes: ["class": "description"], children: [GalleryDocument.isolated(description)]))
        }
        if let source = SafeURL.web(meta.sourceURL) {
            body.append(.element("p", children: [
                .element("a", attributes: ["href": source, "rel": "noopener noreferrer"], children: [.text("Source")]),
            ]))
        }
        if !comments.isEmpty {
            body.append(.element("h2", children: [.text("Comments")]))
            body.append(.element("ol", attributes: ["class": "comments"], children: comments.map { comment in
                .element("li", children: [
                    .element("strong", children: [GalleryDocument.isolated(comment.user?.username ?? "anonymous")]),
                    .text(": "),
                    GalleryDocument.isolated(comment.body),
                ])
            }))
        }
        if previous != nil || next != nil {
            body.append(.element("nav", attributes: ["class": "pages"], children: [previous.map { link("‹ ", $0, "prev") },
                                                                                  next.map { link("", $0, "next", after: " ›") }].compactMap { $0 }))
        }
        return GalleryDocument.page(title: name, body: body)
    }

    private func link(_ before: String, _ neighbour: Neighbour, _ rel: String, after: String = "") -> Node {
        .element("a", attributes: ["href": SafeURL.relative(neighbour.path, depth: Self.depth), "rel": rel], children: [
            .text(before), GalleryDocument.isolated(neighbour.name), .text(after),
        ])
    }
}
