import Foundation
import GallerySystem

/// `pages/BBB/ID-slug.html`: one photo as large as the screen allows, with links to the previous and
/// next photo and back to the index page that shows it, then what is known about it: photographer,
/// rating, description, the original file and its source, the camera's EXIF, comments.
///
/// Plain links do all the work; the viewer script (``ViewerScript``) only adds the keys (Left/Right,
/// Escape or Up), swipes and preloading the next photo, and finds its targets by `rel`.
struct PhotoDetailPage {
    var entry: GalleryState.Entry
    var comments: [Comment]
    /// The finished photos before and after this one, linked from its page.
    var previous: GalleryState.Entry? = nil
    var next: GalleryState.Entry? = nil
    /// The index page that shows this photo's card.
    var indexPath = GalleryNaming.indexPath
    /// Show the EXIF GPS position (`--show-location`).
    var showLocation = false
    /// The other photos of this one's group of copies (`--duplicates`), each credited on this page.
    var copies: [(entry: GalleryState.Entry, membership: DuplicateGrouping.Membership)] = []
    /// The display rendition's size (``GalleryPageOptions/displaySize``); 0: the original is shown.
    var displaySize = 0
    /// Other encodings of the thumbnails offered as `<source>`s (``GalleryPageOptions/sourceFormats``).
    var sourceFormats: [ImageFormat] = []

    /// Pages live two folders below the root (`pages/BBB/ID-slug.html`).
    static let depth = 2

    /// The page as UTF-8, as it is written.
    func render() -> [UInt8] {
        let meta = entry.metadata
        let name = GalleryDocument.displayName(meta.name)
        let back = SafeURL.relative(indexPath, depth: Self.depth) + "#" + IndexPage.anchor(meta.id)
        var body: [Node] = [
            .element("nav", attributes: ["class": "top", "aria-label": "Gallery"], children: [
                .element("a", attributes: ["href": back, "rel": "up"], children: [.text("← All photos")]),
                .element("span", attributes: ["class": "keys", "hidden": ""], children: [
                    .text("Keys: ← → previous and next photo, Esc back to the index"),
                ]),
            ]),
            .element("h1", children: [GalleryDocument.isolated(name)]),
        ]
        if let image = ShownImage(entry, displaySize: displaySize) {
            body.append(.element("figure", attributes: ["class": "photo"], children: [image.node(alt: name, depth: Self.depth, sourceFormats: sourceFormats)]))
        }
        if previous != nil || next != nil {
            body.append(.element("nav", attributes: ["class": "pager", "aria-label": "Photos"], children: [
                previous.map { link("‹ ", $0, "prev", after: "") },
                next.map { link("", $0, "next", after: " ›") },
            ].compactMap { $0 }))
        }
        var info: [Node] = [
            .element("p", attributes: ["class": "meta"], children: [
                CreditLine.full(meta),
                .text(" · rating " + GalleryDocument.rating(meta.rating)),
            ]),
        ]
        if let description = meta.description, !description.isEmpty {
            info.append(.element("p", attributes: ["class": "description"], children: [GalleryDocument.isolated(description)]))
        }
        info.append(links())
        if !copies.isEmpty {
            info.append(.element("h2", children: [.text("Also found at")]))
            info.append(.element("ul", attributes: ["class": "copies"], children: copies.map(copy)))
        }
        if let exif = entry.original?.exif, let list = ExifList(exif: exif, showLocation: showLocation).node() {
            info.append(.element("h2", children: [.text("Camera")]))
            info.append(list)
        }
        if !comments.isEmpty {
            info.append(.element("h2", children: [.text("Comments")]))
            info.append(.element("ol", attributes: ["class": "comments"], children: comments.map { comment in
                .element("li", children: [
                    .element("strong", children: [GalleryDocument.isolated(comment.user?.username ?? "anonymous")]),
                    .text(": "),
                    GalleryDocument.isolated(comment.body),
                ])
            }))
        }
        body.append(.element("section", attributes: ["class": "info"], children: info))
        return GalleryDocument.page(title: name, body: body, depth: Self.depth)
    }

    /// The original file (with its format, pixel size and bytes) and the URL it came from.
    private func links() -> Node {
        var items: [Node] = []
        if let original = entry.original {
            let format = PathText.fileExtension(original.path).uppercased()
            var details = [format.isEmpty ? nil : format]
            if let width = original.width ?? entry.metadata.width, let height = original.height ?? entry.metadata.height {
                details.append("\(width) × \(height)")
            }
            details.append(ByteCountText.file(Int64(original.bytes)))
            items.append(.element("li", children: [
                .element("a", attributes: ["href": SafeURL.relative(original.path, depth: Self.depth)], children: [
                    .text("Original file"),
                ]),
                .text(" (" + details.compactMap { $0 }.joined(separator: ", ") + ")"),
            ]))
        }
        if let source = SafeURL.web(entry.metadata.sourceURL) {
            items.append(.element("li", children: [
                .element("a", attributes: ["href": source, "rel": "noopener noreferrer"], children: [.text("Image at its source")]),
            ]))
        }
        return .element("ul", attributes: ["class": "links"], children: items)
    }

    /// One copy: its credit, how it matched, its own original and its source.
    private func copy(_ copy: (entry: GalleryState.Entry, membership: DuplicateGrouping.Membership)) -> Node {
        let match = copy.membership.hash == "sha256" ? "the same file"
            : "a near copy (pHash distance \(copy.membership.distance))"
        var children: [Node] = [CreditLine.full(copy.entry.metadata), .text(" · " + match)]
        if let original = copy.entry.original {
            children += [.text(" · "), .element("a", attributes: ["href": SafeURL.relative(original.path, depth: Self.depth)],
                                                children: [.text("its file")])]
        }
        if let source = SafeURL.web(copy.entry.metadata.sourceURL) {
            children += [.text(" · "), .element("a", attributes: ["href": source, "rel": "noopener noreferrer"],
                                                children: [.text("image at its source")])]
        }
        return .element("li", children: children)
    }

    /// A link to a neighbour's page, with what its page shows (`src` and `srcset`) for the script to preload.
    private func link(_ before: String, _ neighbour: GalleryState.Entry, _ rel: String, after: String) -> Node {
        let path = GalleryNaming.photoPagePath(id: neighbour.metadata.id, name: neighbour.metadata.name)
        let image = ShownImage(neighbour, displaySize: displaySize)
        let srcset = image?.srcset(depth: Self.depth)
        var attributes: [(String, String?)] = [
            ("href", SafeURL.relative(path, depth: Self.depth)), ("rel", rel), ("class", rel),
            ("data-src", image.map { SafeURL.relative($0.src, depth: Self.depth) }),
            ("data-srcset", srcset),
            ("data-sizes", srcset == nil ? nil : image?.sizes),
        ]
        // What the next page's <picture> offers first, so the script preloads the file it will show.
        if let image {
            let shown = image.candidates.isEmpty ? [(path: image.src, width: image.width)]
                : image.candidates.map { (path: $0.path, width: Optional($0.width)) }
            let sources = PictureSources.dataAttributes(candidates: shown, formats: sourceFormats, depth: Self.depth)
            for format in sourceFormats { attributes.append(("data-srcset-" + format.fileExtension, sources["data-srcset-" + format.fileExtension])) }
        }
        return .element("a", attributeList: attributes, children: [.text(before), GalleryDocument.isolated(GalleryDocument.displayName(neighbour.metadata.name)), .text(after)])
    }
}
