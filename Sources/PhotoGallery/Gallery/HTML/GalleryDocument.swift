import Foundation

/// The parts every gallery page shares: the document shell and how untrusted text is shown.
enum GalleryDocument {
    /// A complete HTML document with the inline style sheet, ending with the viewer script
    /// (``ViewerScript``) at `depth` folders below the gallery root, as UTF-8 (as it is written).
    static func page(title: String, body: [Node], depth: Int = 0) -> [UInt8] {
        let document = Node.fragment([
            .trusted(TrustedHTML("<!DOCTYPE html>\n")),
            .element("html", attributes: ["lang": "en"], children: [
                .element("head", children: [
                    .element("meta", attributes: ["charset": "utf-8"]),
                    .element("meta", attributes: ["name": "viewport", "content": "width=device-width, initial-scale=1"]),
                    .element("title", children: [.text(title)]),
                    .element("style", children: [.trusted(GalleryStyle.css)]),
                ]),
                .element("body", children: body + [
                    .element("script", attributes: ["src": SafeURL.relative(ViewerScript.path, depth: depth), "defer": ""]),
                ]),
            ]),
        ])
        // Grown once: a photo page is the style sheet and a few kilobytes more.
        var out: [UInt8] = []
        out.reserveCapacity(GalleryStyle.css.markup.utf8.count + 6 * 1024)
        document.render(into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Untrusted text isolated in `<bdi>`, so right-to-left marks or overrides in a name
    /// cannot reorder the text around it.
    static func isolated(_ text: String, class className: String? = nil) -> Node {
        .element("bdi", attributes: ["class": className], children: [.text(text)])
    }

    /// A name to show: the server's name, or "Untitled" when it is empty.
    static func displayName(_ name: String) -> String {
        // Most names start with a visible ASCII character: not blank, without asking Foundation.
        if let first = name.utf8.first, first > 0x20, first < 0x80 { return name }
        return name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "Untitled" : name
    }

    /// A rating with one decimal, "–" when unknown.
    static func rating(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: "%.1f", value)
    }

    /// The thumbnail's pixel size: recorded, else derived from the original's aspect ratio.
    static func dimensions(of thumbnail: ThumbnailFile, original: (width: Int?, height: Int?)) -> (Int, Int)? {
        if let width = thumbnail.width, let height = thumbnail.height { return (width, height) }
        guard let width = original.width, let height = original.height, width > 0, height > 0 else { return nil }
        let scale = Double(thumbnail.size) / Double(max(width, height))
        guard scale < 1 else { return (width, height) }
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
