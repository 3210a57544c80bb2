import Foundation

/// One page of a photo listing (`/photos?feature=popular&page=N`).
///
/// Only `photos` is required. Each photo is decoded on its own: a bad one lands in
/// `skipped` with its index and reason, and the rest of the page is kept.
public struct PhotoPage: Sendable, Hashable, Codable {
    /// The page number, as the API reported it.
    public var currentPage: Int?
    /// The number of pages, when the API says.
    public var totalPages: Int?
    /// The number of photos in all pages, when the API says.
    public var totalItems: Int?
    /// The usable photos of the page.
    public var photos: [Photo]
    /// Items of `photos` that could not be decoded. Not part of the encoded form.
    public var skipped: [SkippedItem]

    /// A page of photos.
    public init(currentPage: Int? = nil, totalPages: Int? = nil, totalItems: Int? = nil, photos: [Photo], skipped: [SkippedItem] = []) {
        self.currentPage = currentPage
        self.totalPages = totalPages
        self.totalItems = totalItems
        self.photos = photos
        self.skipped = skipped
    }

    enum CodingKeys: String, CodingKey {
        case photos
        case currentPage = "current_page"
        case totalPages = "total_pages"
        case totalItems = "total_items"
    }

    /// Reads a page, skipping items that cannot be read (they are listed in `skipped`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        currentPage = c.lenient(Int.self, forKey: .currentPage)
        totalPages = c.lenient(Int.self, forKey: .totalPages)
        totalItems = c.lenient(Int.self, forKey: .totalItems)
        (photos, skipped) = partition(try c.decode([LossyElement<Photo>].self, forKey: .photos))
    }

    /// Writes the page in the API's JSON shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(currentPage, forKey: .currentPage)
        try c.encodeIfPresent(totalPages, forKey: .totalPages)
        try c.encodeIfPresent(totalItems, forKey: .totalItems)
        try c.encode(photos, forKey: .photos)
    }

    /// Decodes a page body fetched from `url`.
    ///
    /// - Throws: `SourceError` naming `url` when the body is not JSON or has no `photos` array.
    public static func decode(_ data: Data, from url: URL) throws(SourceError) -> PhotoPage {
        try decodePage(PhotoPage.self, from: data, listKey: CodingKeys.photos.stringValue, page: url)
    }
}
