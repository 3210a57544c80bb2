import Foundation

/// Reduces a service's HTML snippet (MediaWiki `extmetadata`, Flickr descriptions) to plain text and its
/// first http(s) link, so untrusted markup is never pasted into a page: the text is escaped when shown,
/// the link is checked by `SafeURL` when rendered.
///
/// Tags are dropped (the text of `<script>` and `<style>` with them), the common character references
/// decoded, whitespace runs folded to one space.
public enum HTMLText {
    /// The text of `html` and the `href` of its first link (protocol-relative `//host` made https).
    public static func reduce(_ html: String) -> (text: String, link: String?) {
        var text = ""
        var link: String?
        var index = html.startIndex
        var skipping: String?  // inside <script> or <style>: up to its end tag
        while index < html.endIndex {
            let character = html[index]
            guard character == "<", let close = html[index...].firstIndex(of: ">") else {
                if skipping == nil { text.append(character) }
                index = html.index(after: index)
                continue
            }
            let tag = html[html.index(after: index)..<close]
            let lower = tag.lowercased()
            let name = lower.prefix { $0.isLetter || $0 == "/" }
            if let open = skipping {
                if name == "/" + open { skipping = nil }
            } else if name == "script" || name == "style" {
                skipping = String(name)
            } else if name == "a", link == nil, let href = attribute("href", in: String(tag)) {
                let decoded = decodeEntities(href)
                link = decoded.hasPrefix("//") ? "https:" + decoded : decoded
            } else if ["br", "p", "/p", "div", "/div", "li", "/li"].contains(String(name)) {
                text.append(" ")
            }
            index = html.index(after: close)
        }
        let folded = decodeEntities(text).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
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

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`, `&nbsp;` and numeric references.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[amp...]
            if let semi = after.prefix(12).firstIndex(of: ";") {
                let entity = String(after[after.index(after: amp)..<semi])
                if let decoded = decode(entity) {
                    out += decoded
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after.dropFirst()
        }
        return out + rest
    }

    private static func decode(_ entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            let number = entity.hasPrefix("#x") || entity.hasPrefix("#X") ? UInt32(entity.dropFirst(2), radix: 16)
                : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
            // NUL and surrogates are not characters: left as written.
            guard let number, number != 0, let scalar = Unicode.Scalar(number) else { return nil }
            return String(Character(scalar))
        }
    }
}
