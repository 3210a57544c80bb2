import Foundation

/// An item type the API lists in pages: `Photo` under `photos`, `Comment` under `comments`.
public protocol ListingItem: Sendable, Hashable, Codable {
    /// The JSON key of the page's array of these items.
    static var listKey: String { get }
}

/// One page of an API listing, decoded tolerantly: the shape `PhotoPage` and `CommentPage` share.
///
/// Only the item array is required. Each item is decoded on its own: a bad one lands in
/// `skipped` with its index and reason, and the rest of the page is kept. The counts are
/// optional and lenient (absent, `null` or wrong-typed give nil).
public struct ListingPage<Item: ListingItem>: Sendable, Hashable, Codable {
    /// The page number, as the API reported it.
    public var currentPage: Int?
    /// The number of pages, when the API says.
    public var totalPages: Int?
    /// The number of items in all pages, when the API says.
    public var totalItems: Int?
    /// The usable items of the page (also named `photos` or `comments`).
    public var items: [Item]
    /// Items of the array that could not be decoded. Not part of the encoded form.
    public var skipped: [SkippedItem]

    /// A page of items.
    public init(currentPage: Int? = nil, totalPages: Int? = nil, totalItems: Int? = nil, items: [Item], skipped: [SkippedItem] = []) {
        self.currentPage = currentPage
        self.totalPages = totalPages
        self.totalItems = totalItems
        self.items = items
        self.skipped = skipped
    }

    /// The page's JSON keys; the list's key comes from `Item.listKey`.
    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }

        static var list: Key { Key(stringValue: Item.listKey) }
        static var currentPage: Key { Key(stringValue: "current_page") }
        static var totalPages: Key { Key(stringValue: "total_pages") }
        static var totalItems: Key { Key(stringValue: "total_items") }
    }

    /// Reads a page, skipping items that cannot be read (they are listed in `skipped`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        currentPage = c.lenient(Int.self, forKey: .currentPage)
        totalPages = c.lenient(Int.self, forKey: .totalPages)
        totalItems = c.lenient(Int.self, forKey: .totalItems)
        (items, skipped) = partition(try c.decode([LossyElement<Item>].self, forKey: .list))
    }

    /// Writes the page in the API's JSON shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(currentPage, forKey: .currentPage)
        try c.encodeIfPresent(totalPages, forKey: .totalPages)
        try c.encodeIfPresent(totalItems, forKey: .totalItems)
        try c.encode(items, forKey: .list)
    }

    /// Decodes a page body fetched from `url`.
    ///
    /// Only the failures that lose the whole page (not JSON, no list, a list of the wrong type) throw;
    /// item-level failures never reach here, because the list's elements are decoded lossily.
    ///
    /// - Throws: `SourceError` naming `url` when the body is not JSON or has no array under `Item.listKey`.
    public static func decode(_ data: Data, from url: URL) throws(SourceError) -> ListingPage {
        let listKey = Item.listKey
        do {
            return try JSONDecoder().decode(ListingPage.self, from: data)
        } catch let error as DecodingError {
            switch error {
            case let .keyNotFound(key, context) where context.codingPath.isEmpty && key.stringValue == listKey:
                throw .missingList(page: url, key: listKey)
            case let .valueNotFound(_, context) where context.codingPath.map(\.stringValue) == [listKey]:
                throw .missingList(page: url, key: listKey)
            case let .dataCorrupted(context) where context.codingPath.isEmpty:
                throw .notJSON(page: url, reason: String(describing: context.underlyingError ?? error))
            case let .typeMismatch(_, context) where context.codingPath.isEmpty:
                throw .notJSON(page: url, reason: "top level is not a JSON object")
            default:
                throw .malformedPage(page: url, reason: describe(error))
            }
        } catch {
            throw .malformedPage(page: url, reason: String(describing: error))
        }
    }
}
