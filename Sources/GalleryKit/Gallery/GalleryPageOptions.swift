/// How a gallery's pages are laid out and what they show; the same for a single run
/// (``GalleryWriter``) and for the merge of shards (``GalleryMerge``), so both write the same pages.
public struct GalleryPageOptions: Sendable, Hashable {
    /// Cards on one index page (`index.html`, `index-2.html`, ...).
    public var photosPerIndexPage: Int
    /// Show the EXIF GPS position on photo pages and in `gallery.json` (`--show-location`). Off by
    /// default: a photographer's home is often in it.
    public var showLocation: Bool
    /// How copies of one photo are grouped (`--duplicates`); not at all by default.
    public var duplicates: DuplicateMode

    /// Options with the defaults: 240 photos per index page, no location, no grouping of copies.
    public init(photosPerIndexPage: Int = 240, showLocation: Bool = false, duplicates: DuplicateMode = .off) {
        self.photosPerIndexPage = max(1, photosPerIndexPage)
        self.showLocation = showLocation
        self.duplicates = duplicates
    }
}
