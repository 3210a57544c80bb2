import Foundation

/// One page of a photo listing (`/photos?feature=popular&page=N`), its photos under `photos`.
///
/// Only `photos` is required. Each photo is decoded on its own: a bad one lands in
/// `skipped` with its index and reason, and the rest of the page is kept.
public typealias PhotoPage = ListingPage<Photo>

extension Photo: ListingItem {
    /// Photos are listed under `photos`.
    public static var listKey: String { "photos" }
}

extension ListingPage where Item == Photo {
    /// The usable photos of the page.
    public var photos: [Photo] {
        get { items }
        set { items = newValue }
    }

    /// A page of photos.
    public init(currentPage: Int? = nil, totalPages: Int? = nil, totalItems: Int? = nil, photos: [Photo], skipped: [SkippedItem] = []) {
        self.init(currentPage: currentPage, totalPages: totalPages, totalItems: totalItems, items: photos, skipped: skipped)
    }
}
