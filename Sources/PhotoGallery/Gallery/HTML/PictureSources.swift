/// The `<picture>` around a thumbnail `<img>` when the gallery has modern encodings beside the fallback
/// (``GalleryPageOptions/sourceFormats``): one `<source type="image/avif">` (or WebP) per format, each
/// with the same candidates and `sizes` as the `<img>` in that format, before the `<img>` itself. A
/// browser takes the first type it can show and falls back to the `<img>`. The extra encodings lie
/// beside each thumbnail under the same name with their own extension.
enum PictureSources {
    /// `image` (an `<img>`) wrapped with a source per format, or `image` alone without formats or when a
    /// candidate is not a thumbnail (the original has no other encodings).
    static func wrap(_ image: Node, candidates: [(path: String, width: Int?)], formats: [ImageFormat],
                     sizes: String?, depth: Int) -> Node {
        guard !formats.isEmpty, !candidates.isEmpty,
              candidates.allSatisfy({ $0.path.hasPrefix("thumbs/") }) else { return image }
        let sources: [Node] = formats.map { format in
            let srcset = candidates.map { candidate in
                let url = SafeURL.relative(path(candidate.path, as: format), depth: depth)
                return candidates.count > 1 ? "\(url) \(candidate.width ?? 0)w" : url
            }.joined(separator: ", ")
            return .element("source", attributes: [
                "type": format.mediaType, "srcset": srcset, "sizes": candidates.count > 1 ? sizes : nil,
            ])
        }
        return .element("picture", children: sources + [image])
    }

    /// The `data-srcset-avif` (`-webp`) attributes of a link to a photo page, for the viewer script to
    /// preload what that page's `<picture>` will show; empty where ``wrap`` would add no sources.
    static func dataAttributes(candidates: [(path: String, width: Int?)], formats: [ImageFormat],
                               depth: Int) -> [String: String] {
        guard !formats.isEmpty, !candidates.isEmpty, candidates.allSatisfy({ $0.path.hasPrefix("thumbs/") }) else { return [:] }
        var attributes: [String: String] = [:]
        for format in formats {
            attributes["data-srcset-" + format.fileExtension] = candidates.map { candidate in
                let url = SafeURL.relative(path(candidate.path, as: format), depth: depth)
                return candidates.count > 1 ? "\(url) \(candidate.width ?? 0)w" : url
            }.joined(separator: ", ")
        }
        return attributes
    }

    /// A thumbnail's path with another format's extension.
    static func path(_ thumbnail: String, as format: ImageFormat) -> String {
        let dot = thumbnail.lastIndex(of: ".").map { thumbnail[..<$0] } ?? Substring(thumbnail)
        return dot + "." + format.fileExtension
    }
}
