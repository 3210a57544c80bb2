import Foundation

/// Reduces a service's HTML snippet (MediaWiki `extmetadata`, Flickr descriptions) to plain text and its
/// first http(s) link, so untrusted markup is never pasted into a page: the text is escaped when shown,
/// the link is checked by `SafeURL` when rendered.
///
/// Tags are dropped (the text of `<script>` and `<style>` with them), every character reference decoded
/// as a browser decodes it (`&eacute;`, `&#233;`, `&copy` without its semicolon), runs of HTML whitespace
/// folded to one space (a no-break space is kept).
public enum HTMLText {
    /// The text of `html` and the `href` of its first link (protocol-relative `//host` made https).
    public static func reduce(_ html: String) -> (text: String, link: String?) {
        var text = ""
        var run = ""  // text since the last tag: its references are decoded there, never across a tag
        var link: String?
        var index = html.startIndex
        var skipping: String?  // inside <script> or <style>: up to its end tag
        while index < html.endIndex {
            let character = html[index]
            guard character == "<", let close = html[index...].firstIndex(of: ">") else {
                if skipping == nil { run.append(character) }
                index = html.index(after: index)
                continue
            }
            text += decodeEntities(run)
            run = ""
            let tag = html[html.index(after: index)..<close]
            let lower = tag.lowercased()
            let name = lower.prefix { $0.isLetter || $0 == "/" }
            if let open = skipping {
                if name == "/" + open { skipping = nil }
            } else if name == "script" || name == "style" {
                skipping = String(name)
            } else if name == "a", link == nil, let href = attribute("href", in: String(tag)) {
                let decoded = decodeEntities(href, inAttribute: true)
                link = decoded.hasPrefix("//") ? "https:" + decoded : decoded
            } else if ["br", "p", "/p", "div", "/div", "li", "/li"].contains(String(name)) {
                text.append(" ")
            }
            index = html.index(after: close)
        }
        text += decodeEntities(run)
        // HTML's whitespace (space, tab, line feed, form feed, carriage return), not a no-break space.
        let folded = text.split(whereSeparator: { $0.unicodeScalars.allSatisfy { " \t\n\u{0C}\r".unicodeScalars.contains($0) } })
            .joined(separator: " ")
        return (folded, link)
    }

    /// The value of attribute `name` in the inside of a start tag (quoted with `"` or `'`, or bare).
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: name + "=", options: .caseInsensitive) else { return nil }
        var rest = tag[range.upperBound...]
        guard let quote = rest.first else { return nil }
        if quote == "\"" || quote == "'" {
            rest = rest.dropFirst()
            return String(rest.prefix { $0 != quote })
        }
        return String(rest.prefix { !$0.isWhitespace && $0 != ">" })
    }

    /// `text` with every character reference of HTML decoded (``HTMLCharacterReferences``).
    static func decodeEntities(_ text: String, inAttribute: Bool = false) -> String {
        HTMLCharacterReferences.decode(text, inAttribute: inAttribute)
    }
}
