/// Markup that is written into the output unescaped.
///
/// It can only be made from a `StaticString`, i.e. a literal in this program's source, so
/// no byte from a server, a file or the command line can ever reach the output raw.
public struct TrustedHTML: Sendable, Hashable {
    let markup: String

    /// Markup written in the source code (a literal), trusted as is.
    public init(_ literal: StaticString) {
        markup = literal.description
    }
}
