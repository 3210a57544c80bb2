import Foundation

/// A photo chosen for download, with the one image URL to fetch.
///
/// A plan file (``PlanFile``) holds one a line: `{"image_size":4,"image_url":"https://…","page":1,"photo":{…}}`.
public struct SelectedPhoto: Sendable, Hashable, Codable {
    /// The photo.
    public var photo: Photo
    /// The http(s) URL of the chosen rendition.
    public var imageURL: URL
    /// The chosen size number, or nil when only an unsized `image_url` was available.
    public var imageSize: Int?
    /// The page (1-based) the photo was first seen on.
    public var page: Int

    /// `photo`, to be fetched from `imageURL` (an http(s) URL), first seen on listing page `page`.
    public init(photo: Photo, imageURL: URL, imageSize: Int? = nil, page: Int) {
        (self.photo, self.imageURL, self.imageSize, self.page) = (photo, imageURL, imageSize, page)
    }

    enum CodingKeys: String, CodingKey {
        case photo, page
        case imageURL = "image_url"
        case imageSize = "image_size"
    }

    /// A plan line's `image_url` that is not an absolute http(s) URL.
    public struct NotAWebURL: Error, CustomStringConvertible {
        public var description: String { "image_url is not an absolute http(s) URL" }
    }

    /// Reads a plan line; throws ``NotAWebURL`` for an `image_url` a run could not fetch.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        photo = try c.decode(Photo.self, forKey: .photo)
        guard let url = PhotoSelector.webURL(try c.decode(String.self, forKey: .imageURL)) else { throw NotAWebURL() }
        imageURL = url
        imageSize = try c.decodeIfPresent(Int.self, forKey: .imageSize)
        page = try c.decode(Int.self, forKey: .page)
    }

    /// Writes the plan line: the URL as text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(photo, forKey: .photo)
        try c.encode(imageURL.absoluteString, forKey: .imageURL)
        try c.encodeIfPresent(imageSize, forKey: .imageSize)
        try c.encode(page, forKey: .page)
    }
}

/// Why a listed photo was not selected.
public enum RejectionReason: Sendable, Hashable {
    /// Already selected from an earlier item or page: the first one seen wins.
    case duplicate
    /// Marked NSFW and NSFW photos were not asked for.
    case nsfw
    /// No image URL with an http or https scheme.
    case noUsableImage
}

/// A listed photo that was left out, and why.
public struct RejectedPhoto: Sendable, Hashable {
    /// The photo's id.
    public var id: Int
    /// Why it was left out.
    public var reason: RejectionReason
}

/// What one page contributed.
public struct PageSelection: Sendable, Hashable {
    /// Photos kept, in page order.
    public var selected: [SelectedPhoto] = []
    /// Photos left out, with the reason.
    public var rejected: [RejectedPhoto] = []
}

/// Chooses which photos of a run of pages to download, and which rendition of each.
///
/// A pure value: feed it pages in order with `add(_:number:)`, ask `nextPage` what to fetch
/// next. Rules:
/// - de-duplicates by photo id across pages; the first one seen wins;
/// - leaves out NSFW photos unless `includeNSFW`;
/// - picks the rendition of `imageSize` when given and offered, otherwise the largest by
///   `ImageSizeRank`; `image_url` (size unknown) is used only when no sized image is usable;
/// - stops at the page limit, at the server's `total_pages`, or after an empty page.
public struct PhotoSelector: Sendable {
    /// Keep photos marked NSFW.
    public var includeNSFW: Bool
    /// Prefer this image size code when offered (else the largest).
    public var imageSize: Int?
    /// Stop after this many pages.
    public var pageLimit: Int
    /// Read only this shard's pages (pages p with (p - 1) mod count == index).
    public var shard: ShardSpec

    /// Selected photos in first-seen order (kept only while ``keepsSelected``).
    public private(set) var selected: [SelectedPhoto] = []
    /// Whether ``selected`` keeps every photo; a long run turns it off and keeps only the ids seen.
    public var keepsSelected = true
    private var seen: Set<Int> = []
    private var lastPage = 0
    private var totalPages: Int?
    private var sawEmptyPage = false

    /// A selector reading at most `pageLimit` pages.
    public init(pageLimit: Int, includeNSFW: Bool = false, imageSize: Int? = nil, shard: ShardSpec = .whole) {
        self.pageLimit = pageLimit
        self.shard = shard
        self.includeNSFW = includeNSFW
        self.imageSize = imageSize
    }

    /// The next page number to fetch, or nil when the run is done.
    public var nextPage: Int? {
        let next = lastPage == 0 ? shard.firstPage : shard.page(after: lastPage)
        if sawEmptyPage || next > pageLimit { return nil }
        if let totalPages, next > totalPages { return nil }
        return next
    }

    /// Takes in page `number` and returns what it contributed.
    @discardableResult
    public mutating func add(_ page: PhotoPage, number: Int) -> PageSelection {
        lastPage = max(lastPage, number)
        if let total = page.totalPages { totalPages = total }
        if page.photos.isEmpty && page.skipped.isEmpty { sawEmptyPage = true }
        var result = PageSelection()
        for photo in page.photos {
            if seen.contains(photo.id) {
                result.rejected.append(RejectedPhoto(id: photo.id, reason: .duplicate))
            } else if photo.nsfw && !includeNSFW {
                result.rejected.append(RejectedPhoto(id: photo.id, reason: .nsfw))
            } else if let (url, size) = chooseImage(for: photo) {
                seen.insert(photo.id)
                let choice = SelectedPhoto(photo: photo, imageURL: url, imageSize: size, page: number)
                if keepsSelected { selected.append(choice) }
                result.selected.append(choice)
            } else {
                result.rejected.append(RejectedPhoto(id: photo.id, reason: .noUsableImage))
            }
        }
        return result
    }

    /// The rendition to download for `photo` under this selector's rules.
    public func chooseImage(for photo: Photo) -> (url: URL, size: Int?)? {
        let usable = photo.images.compactMap { image in Self.webURL(image.url).map { (url: $0, size: image.size) } }
        if let imageSize, let exact = usable.first(where: { $0.size == imageSize }) {
            return (exact.url, exact.size)
        }
        let largest = usable.reduce(nil) { (best: (url: URL, size: Int)?, next) in
            guard let best else { return next }
            return ImageSizeRank.isSmaller(best.size, than: next.size) ? next : best
        }
        if let largest { return (largest.url, largest.size) }
        return photo.imageURL.flatMap(Self.webURL).map { ($0, nil) }
    }

    /// `text` as a URL when it is absolute http or https with a host; nil otherwise.
    static func webURL(_ text: String) -> URL? {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return nil }
        return components.url
    }
}
