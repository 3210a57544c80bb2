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
        var out = ""
        render(into: &out)
        return out
    }

    func render(into out: inout String) {
        switch kind {
        case let .text(text):
            HTMLEscaping.escape(text, into: &out)
        case let .trusted(html):
            out += html.markup
        case let .fragment(nodes):
            for node in nodes { node.render(into: &out) }
        case let .element(tag, attributes, children):
            // Piece by piece into `out`: joining the pieces first made a string for each `+`.
            out += "<"
            out += tag
            for attribute in attributes {
                out += " "
                out += attribute.name
                out += "=\""
                HTMLEscaping.escape(attribute.value, into: &out)
                out += "\""
            }
            out += ">"
            if Self.voidElements.contains(tag) { return }
            for child in children { child.render(into: &out) }
            out += "</"
            out += tag
            out += ">"
        }
    }

    /// Elements that have no content and no end tag.
    static let voidElements: Set<String> = ["area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"]

    private static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }
}
