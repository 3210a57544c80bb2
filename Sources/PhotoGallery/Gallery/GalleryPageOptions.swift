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
    /// The longest edge of the display rendition a photo page shows instead of the original (which
    /// stays linked): made from the same decode as the thumbnails, recorded among them under this size,
    /// and never offered to the index cards. 0: none, the page offers the original (the command line's
    /// `--display-size` defaults to 2048). Originals no larger are shown as they are.
    public var displaySize: Int
    /// Other encodings of every thumbnail and display rendition (AVIF, WebP), offered in this order as
    /// `<source>`s of a `<picture>` before the `<img>` of the thumbnails' own format, so a browser that
    /// shows them loads the smaller file and every other browser the `<img>`. Set by the gallery run from
    /// its ``GalleryJob/extraThumbnailFormats``; empty: plain `<img>`s.
    public var sourceFormats: [ImageFormat] = []

    /// Options with the defaults: 240 photos per index page, no location, no grouping of copies, no
    /// display rendition.
    public init(photosPerIndexPage: Int = 240, showLocation: Bool = false, duplicates: DuplicateMode = .off,
                displaySize: Int = 0) {
        self.photosPerIndexPage = max(1, photosPerIndexPage)
        self.showLocation = showLocation
        self.duplicates = duplicates
        self.displaySize = max(0, displaySize)
    }
}
