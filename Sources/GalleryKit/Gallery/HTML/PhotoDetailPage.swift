/// `photos/ID-slug.html`: one photo at full size with its name, photographer, rating,
/// description, source link and comments, linking back to the index.
struct PhotoDetailPage {
    var entry: GalleryState.Entry
    var comments: [Comment]

    /// Pages live one folder below the root.
    static let depth = 1

    func render() -> String {
        let meta = entry.metadata
        let name = GalleryDocument.displayName(meta.name)
        var body: [Node] = [
            .element("p", children: [
                .element("a", attributes: ["href": SafeURL.relative(GalleryNaming.indexPath, depth: Self.depth)], children: [
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
            .text("By "), GalleryDocument.isolated(meta.photographer ?? "unknown"),
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
        return GalleryDocument.page(title: name, body: body)
    }
}
