/// One item of a page that could not be decoded and was left out.
///
/// The rest of the page is kept: a single bad photo must never cost the others.
public struct SkippedItem: Sendable, Hashable, Codable {
    /// Zero-based position of the item in the page's array.
    public var index: Int
    /// Human-readable reason, naming the field that was missing or wrong-typed.
    public var reason: String

    /// Item `index` of the page, skipped for `reason`.
    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}
