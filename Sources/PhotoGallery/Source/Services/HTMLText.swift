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
        return (fold(text), link)
    }

    /// `text` with each run of HTML's whitespace (space, tab, line feed, form feed, carriage return;
    /// not a no-break space) made one space, none at either end. By code point, as HTML does: a space
    /// that a combining mark follows is still a space.
    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pending = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case " ", "\t", "\n", "\u{0C}", "\r":
                pending = !out.isEmpty
            default:
                if pending { out.append(" ") }
                pending = false
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The value of attribute `name` in the inside of a start tag (quoted with `"` or `'`, or bare;
    /// spaces around `=` allowed), or nil when the tag has none or an empty one. `name` must start the
    /// attribute: `data-href=` is not `href`.
    static func attribute(_ name: String, in tag: String) -> String? {
        var search = tag.startIndex..<tag.endIndex
        while let range = tag.range(of: name, options: .caseInsensitive, range: search) {
            search = range.upperBound..<tag.endIndex
            if range.lowerBound > tag.startIndex, !tag[tag.index(before: range.lowerBound)].isWhitespace { continue }
            var rest = tag[range.upperBound...].drop { $0.isWhitespace }
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            let value: Substring
            if let quote = rest.first, quote == "\"" || quote == "'" {
                value = rest.dropFirst().prefix { $0 != quote }
            } else {
                value = rest.prefix { !$0.isWhitespace && $0 != ">" }
            }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// `text` with every character reference of HTML decoded (``HTMLCharacterReferences``).
    static func decodeEntities(_ text: String, inAttribute: Bool = false) -> String {
        HTMLCharacterReferences.decode(text, inAttribute: inAttribute)
    }
}
