/// A small HTML tree that escapes by construction.
///
/// Text and attribute values are always escaped when rendered; tag and attribute names
/// are checked to be plain lower-case identifiers (they come from this program, never from
/// input); raw markup only enters through `TrustedHTML`, i.e. a source literal.
///
/// ```swift
/// Node.element("a", attributes: ["href": path], children: [.text(name)]).render()
/// ```
public struct Node: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case element(tag: String, attributes: [Attribute], children: [Node])
        case text(String)
        case trusted(TrustedHTML)
        case fragment([Node])
    }

    struct Attribute: Sendable, Hashable {
        var name: String
        var value: String
    }

    let kind: Kind

    /// An element. Attributes keep the order written; a nil value leaves the attribute out.
    public static func element(
        _ tag: String, attributes: KeyValuePairs<String, String?> = [:], children: [Node] = []
    ) -> Node {
        precondition(isName(tag), "tag name \(tag) is not a plain identifier")
        let kept = attributes.compactMap { pair -> Attribute? in
            precondition(isName(pair.key), "attribute name \(pair.key) is not a plain identifier")
            return pair.value.map { Attribute(name: pair.key, value: $0) }
        }
        return Node(kind: .element(tag: tag, attributes: kept, children: children))
    }

    /// The same with attributes built at run time, in order; a nil value leaves the attribute out.
    public static func element(_ tag: String, attributeList: [(String, String?)], children: [Node] = []) -> Node {
        precondition(isName(tag), "tag name \(tag) is not a plain identifier")
        let kept = attributeList.compactMap { pair -> Attribute? in
            precondition(isName(pair.0), "attribute name \(pair.0) is not a plain identifier")
            return pair.1.map { Attribute(name: pair.0, value: $0) }
        }
        return Node(kind: .element(tag: tag, attributes: kept, children: children))
    }

    /// Text, escaped on output.
    public static func text(_ text: String) -> Node { Node(kind: .text(text)) }

    /// Markup from a source literal, written as is.
    public static func trusted(_ html: TrustedHTML) -> Node { Node(kind: .trusted(html)) }

    /// Several nodes with no element around them.
    public static func fragment(_ nodes: [Node]) -> Node { Node(kind: .fragment(nodes)) }

    /// The HTML text of this node.
    public func render() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)  // a card or a list; a whole page reserves its own (GalleryDocument)
        render(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The HTML of this node appended to `out` as UTF-8: bytes, because appending to a String checks its
    /// storage and capacity on every piece, and a page has hundreds of pieces.
    func render(into out: inout [UInt8]) {
        switch kind {
        case let .text(text):
            HTMLEscaping.escape(text, into: &out)
        case let .trusted(html):
            out.append(contentsOf: html.markup.utf8)
        case let .fragment(nodes):
            for node in nodes { node.render(into: &out) }
        case let .element(tag, attributes, children):
            out.append(UInt8(ascii: "<"))
            out.append(contentsOf: tag.utf8)
            for attribute in attributes {
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: attribute.name.utf8)
                out.append(UInt8(ascii: "="))
                out.append(UInt8(ascii: "\""))
                HTMLEscaping.escape(attribute.value, into: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: ">"))
            if Self.isVoid(tag) { return }
            for child in children { child.render(into: &out) }
            out.append(UInt8(ascii: "<"))
            out.append(UInt8(ascii: "/"))
            out.append(contentsOf: tag.utf8)
            out.append(UInt8(ascii: ">"))
        }
    }

    /// Whether `tag` is an element that has no content and no end tag. A `switch`, not a `Set`: a set
    /// hashes the name (SipHash) for every element of every page.
    static func isVoid(_ tag: String) -> Bool {
        switch tag {
        case "area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr": true
        default: false
        }
    }

    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }
}
