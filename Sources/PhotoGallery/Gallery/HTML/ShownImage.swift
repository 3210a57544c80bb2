/// The image a photo page shows: the display rendition (see ``GalleryPageOptions/displaySize``) as
/// `src`, and every smaller thumbnail plus the display rendition in a `srcset` with width descriptors,
/// so a phone gets a thumbnail and a large screen the display rendition. Without one (none wanted, or
/// the original is no larger), the original takes its place.
struct ShownImage: Equatable {
    /// The display rendition's or the original's path in the gallery.
    var src: String
    var width: Int?
    var height: Int?
    /// (path, width in pixels) of every candidate, smallest first; empty when widths are unknown.
    var candidates: [(path: String, width: Int)]

    /// The photo is shown at most as wide as the page (the viewport less the body's padding) and
    /// never wider than the original: the browser takes a candidate's intrinsic width from `sizes`,
    /// so a plain `100vw` would blow a small original up to the screen's width.
    var sizes: String {
        width.map { "min(calc(100vw - 24px), \($0)px)" } ?? "calc(100vw - 24px)"
    }

    /// The image of a finished photo; nil without an original.
    init?(_ entry: GalleryState.Entry, displaySize: Int = 0) {
        guard let original = entry.original else { return nil }
        src = original.path
        width = original.width ?? entry.metadata.width
        height = original.height ?? entry.metadata.height
        candidates = []
        guard let width, height != nil else { return }
        let thumbnails = entry.thumbnails.keys.sorted().compactMap { size -> (String, Int)? in
            guard let thumbnail = entry.thumbnails[size],
                  let (w, _) = GalleryDocument.dimensions(of: thumbnail, original: (width, height)), w < width else { return nil }
            return (thumbnail.path, w)
        }
        if displaySize > 0, let display = entry.thumbnails[displaySize],
           let shown = thumbnails.first(where: { $0.0 == display.path }) {
            src = display.path
            candidates = thumbnails.filter { $0.1 <= shown.1 }
        } else {
            candidates = thumbnails + [(original.path, width)]
        }
    }

    static func == (a: ShownImage, b: ShownImage) -> Bool {
        a.src == b.src && a.candidates.map(\.path) == b.candidates.map(\.path) && a.candidates.map(\.width) == b.candidates.map(\.width)
    }

    /// The `srcset` from a page `depth` folders down; nil with a single candidate.
    func srcset(depth: Int) -> String? {
        guard candidates.count > 1 else { return nil }
        // Appended in place: interpolating each candidate, then joining, made three strings a candidate.
        var out = ""
        out.reserveCapacity(candidates.count * 80)
        for (i, candidate) in candidates.enumerated() {
            if i > 0 { out += ", " }
            out += SafeURL.relative(candidate.path, depth: depth)
            out += " "
            out += String(candidate.width)
            out += "w"
        }
        return out
    }

    /// The `<img>` element, in a `<picture>` with a `<source>` per format of `sourceFormats` when every
    /// candidate is a thumbnail or the display rendition (see ``PictureSources``).
    func node(alt: String, depth: Int, sourceFormats: [ImageFormat] = []) -> Node {
        let srcset = srcset(depth: depth)
        let img = Node.element("img", attributes: [
            "src": SafeURL.relative(src, depth: depth), "srcset": srcset, "sizes": srcset == nil ? nil : sizes,
            "alt": alt, "width": width.map(String.init), "height": height.map(String.init),
        ])
        let shown = candidates.isEmpty ? [(path: src, width: width)] : candidates.map { (path: $0.path, width: Optional($0.width)) }
        return PictureSources.wrap(img, candidates: shown, formats: sourceFormats, sizes: sizes, depth: depth)
    }
}
