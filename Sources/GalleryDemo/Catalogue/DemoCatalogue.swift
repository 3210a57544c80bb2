/// The deterministic 500px-style "popular" feed the demo server lists.
///
/// A pure value: the same configuration gives the same photos, pages, names and comments on every
/// run and every machine (all values come from ``SeededGenerator`` seeded by id, never from the
/// system generator). Nothing is read from disk; only rendering an image touches the sources.
public struct DemoCatalogue: Sendable {
    /// Distinct photos per page at the default `rpp`.
    public static let defaultPageSize = 50
    /// The largest `rpp` honoured, as on 500px.
    public static let maximumPageSize = 100

    /// Pages at the default page size (``defaultPageSize`` photos each).
    public let pageCount: Int
    /// How many source photographs the images are derived from (at least 1).
    public let sourceCount: Int
    /// Photos of a synthetic catalogue (see ``init(syntheticPhotos:sourceCount:)``); nil for the standard one.
    public let syntheticCount: Int?
    /// Distinct photos in the feed.
    public var totalItems: Int { syntheticCount ?? pageCount * Self.defaultPageSize }
    /// Whether this is a synthetic catalogue for scale tests.
    public var isSynthetic: Bool { syntheticCount != nil }

    /// - Parameters:
    ///   - pageCount: how many 50-photo pages to offer (20 gives 1,000 photos for scale tests).
    ///   - sourceCount: how many source photographs exist; recipes pick among them.
    public init(pageCount: Int = 20, sourceCount: Int) {
        precondition(pageCount >= 1 && sourceCount >= 1)
        self.pageCount = pageCount
        self.sourceCount = sourceCount
        syntheticCount = nil
    }

    /// A synthetic catalogue for scale tests: `count` photos (any number, 100,000 and more), each a
    /// small JPEG of about 50 kB (0.25 to 0.45 MP) derived from the bundled photographs.
    ///
    /// Rendering 100,000 images would take hours, so the images are drawn from
    /// ``syntheticVariants`` distinct renderings (crops of the sources, each rendered once and
    /// cached like any demo image); each photo's bytes are its variant's with a JPEG comment naming
    /// the photo inserted after the start marker, so every photo has bytes (and a SHA-256) of its own
    /// while decoding costs what the variant's does. Metadata (names, users, ratings) is per photo.
    public init(syntheticPhotos count: Int, sourceCount: Int) {
        precondition(count >= 1 && sourceCount >= 1)
        pageCount = (count + Self.defaultPageSize - 1) / Self.defaultPageSize
        self.sourceCount = sourceCount
        syntheticCount = count
    }

    /// Distinct renderings a synthetic catalogue draws its images from.
    public static let syntheticVariants = 997
    /// Ids of the variants' own renderings in the image cache (never listed).
    static let variantBaseID = 900_000_000

    // Ids look like a real site's (large, not 1, 2, 3) yet map back to the ordinal exactly:
    // the jitter is below the stride, so ids are strictly increasing and unique.
    static let firstID = 4_016_000
    static let idStride = 13

    /// The id of the photo at a feed position.
    static func id(ofOrdinal ordinal: Int) -> Int {
        firstID + ordinal * idStride + (ordinal * 7) % 11
    }

    /// The photo with this id, or `nil` if the catalogue has none.
    public func photo(id: Int) -> DemoPhoto? {
        let ordinal = (id - Self.firstID) / Self.idStride
        guard id >= Self.firstID, ordinal < totalItems, Self.id(ofOrdinal: ordinal) == id else { return nil }
        return photo(ordinal: ordinal)
    }

    /// The photo at a feed position (0-based, below ``totalItems``).
    public func photo(ordinal: Int) -> DemoPhoto {
        precondition(ordinal >= 0 && ordinal < totalItems)
        let factory = DemoPhotoFactory(sourceCount: sourceCount)
        if isSynthetic {
            return factory.makeSynthetic(ordinal: ordinal, id: Self.id(ofOrdinal: ordinal), variants: Self.syntheticVariants)
        }
        return factory.make(ordinal: ordinal, id: Self.id(ofOrdinal: ordinal))
    }

    /// The rendering a synthetic photo's image comes from (its own id, recipe and size), or nil for
    /// a photo of the standard catalogue.
    public func variantPhoto(of photo: DemoPhoto) -> DemoPhoto? {
        photo.variant.map { DemoPhotoFactory(sourceCount: sourceCount).makeVariant($0) }
    }

    /// Every distinct photo in feed order.
    public var allPhotos: [DemoPhoto] { (0..<totalItems).map(photo(ordinal:)) }

    /// What `serve-demo --warm` renders: every photo, or a synthetic catalogue's variants (its photos'
    /// images are made from them at request time).
    public var renderings: [DemoPhoto] {
        guard isSynthetic else { return allPhotos }
        let factory = DemoPhotoFactory(sourceCount: sourceCount)
        return (0..<Self.syntheticVariants).map(factory.makeVariant)
    }
}

extension DemoCatalogue {
    /// One page of the feed as the listing endpoint returns it.
    public struct Page: Sendable {
        public let number: Int
        public let totalPages: Int
        public let totalItems: Int
        /// The photos in listing order. May hold a photo of the previous page again (see ``page(_:size:)``).
        public let photos: [DemoPhoto]
    }

    /// Page `number` (1-based) at `size` photos per page.
    ///
    /// Like the real popular feed, which shifted while a client paged through it, some pages start
    /// with one or two photos already listed at the end of the previous page. They come on top of
    /// the page's `size` new photos, so the first N pages always hold `N * size` distinct photos and
    /// clients must de-duplicate by id. Pages past the end are empty.
    public func page(_ number: Int, size: Int = defaultPageSize) -> Page {
        let size = min(max(size, 1), Self.maximumPageSize)
        let totalPages = (totalItems + size - 1) / size
        guard number >= 1, number <= totalPages else {
            return Page(number: number, totalPages: totalPages, totalItems: totalItems, photos: [])
        }
        let start = (number - 1) * size
        let fresh = (start..<min(start + size, totalItems)).map(photo(ordinal:))
        var repeats: [DemoPhoto] = []
        if number > 1 {
            var generator = SeededGenerator(number &* 1_000 &+ size, .page)
            // About one page in three repeats photos; how many is seeded too.
            if generator.next() % 3 == 0 {
                let count = 1 + Int(generator.next() % 2)
                repeats = (max(0, start - count)..<start).map(photo(ordinal:))
            }
        }
        return Page(number: number, totalPages: totalPages, totalItems: totalItems, photos: repeats + fresh)
    }
}
