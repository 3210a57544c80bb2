/// The credit line a photo's source asks for, as escaped HTML nodes: "Photo by NAME on SERVICE · LICENCE",
/// each part linked when the source gave an http(s) link (author page, service, licence), and the
/// photo's page at the source. Without a credit (500px-style APIs, URL lists) it is "By NAME".
///
/// Every text is untrusted and goes through `Node.text` (escaped, bidi-isolated); every link goes
/// through `SafeURL.web`, so `javascript:` and `data:` links are dropped, never escaped into an `href`.
enum CreditLine {
    /// The full line for a photo's page: author, service, licence and a link to the photo at its source.
    static func full(_ meta: PhotoMetadata) -> Node {
        guard let credit = meta.credit else {
            return .element("span", attributes: ["class": "credit"], children: [
                .text("By "), GalleryDocument.isolated(meta.photographer ?? "unknown"),
            ])
        }
        var parts: [Node] = [.text("Photo by "), link(credit.author ?? meta.photographer ?? "unknown", credit.authorURL)]
        if let service = credit.service {
            parts += [.text(" on "), link(service, credit.serviceURL)]
        }
        if let licence = credit.licence, !licence.isEmpty {
            parts += [.text(" · "), link(licence, credit.licenceURL)]
        }
        if let page = SafeURL.web(credit.pageURL) {
            parts += [.text(" · "), .element("a", attributes: ["href": page, "rel": "noopener noreferrer"],
                                            children: [.text("photo page")])]
        }
        return .element("span", attributes: ["class": "credit"], children: parts)
    }

    /// The short form under a thumbnail: the author, linked to their page when known.
    static func short(_ meta: PhotoMetadata) -> Node {
        let author = meta.credit?.author ?? meta.photographer ?? "unknown"
        return link(author, meta.credit?.authorURL)
    }

    /// `text`, inside a link to `url` when that is http(s).
    private static func link(_ text: String, _ url: String?) -> Node {
        guard let href = SafeURL.web(url) else { return GalleryDocument.isolated(text) }
        return .element("a", attributes: ["href": href, "rel": "noopener noreferrer"], children: [GalleryDocument.isolated(text)])
    }
}
