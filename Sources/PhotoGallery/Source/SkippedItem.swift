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

extension SkippedItem {
    /// Why a service's item could not be made a photo: the field that was missing or wrong-typed.
    struct Reason: Error { var text: String }

    /// `items` made photos by `photo`, in order, and the items it refused, each with its index and reason.
    static func sort<Item>(_ items: [Item], _ photo: (Item) -> Result<Photo, Reason>) -> (photos: [Photo], skipped: [SkippedItem]) {
        var photos: [Photo] = []
        var skipped: [SkippedItem] = []
        for (index, item) in items.enumerated() {
            switch photo(item) {
            case .success(let made): photos.append(made)
            case .failure(let reason): skipped.append(SkippedItem(index: index, reason: reason.text))
            }
        }
        return (photos, skipped)
    }
}
