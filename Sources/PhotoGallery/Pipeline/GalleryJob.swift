import Foundation

/// Everything one gallery run needs to know: where photos come from, where the gallery goes, and
/// how hard to work. The transfer engine's own limits live in its `TransferConfiguration`.
public struct GalleryJob: Sendable {
    /// Where the photo list comes from.
    public enum Source: Sendable, Hashable {
        /// A 500px-style API at this base URL (e.g. `http://127.0.0.1:8080`), with an optional consumer key.
        case api(base: URL, consumerKey: String?)
        /// A plain list of image URLs (the text of a file, one URL per line).
        case urlList(text: String, name: String)
        /// A plan file made by ``GalleryRun/plan()`` (the listing read once), and the source it records.
        case plan(path: String, source: String)
        /// A photo service (``PhotoService``): Wikimedia Commons, Openverse, Unsplash, Pexels, Flickr.
        case service(any PhotoService)
        /// A listing of the library user's own (``PhotoSource``).
        case custom(any PhotoSource)

        /// Equal when the same kind reads the same listing (services compare by name and description).
        public static func == (a: Source, b: Source) -> Bool {
            switch (a, b) {
            case let (.api(b1, k1), .api(b2, k2)): b1 == b2 && k1 == k2
            case let (.urlList(t1, n1), .urlList(t2, n2)): t1 == t2 && n1 == n2
            case let (.plan(p1, s1), .plan(p2, s2)): p1 == p2 && s1 == s2
            case let (.service(s1), .service(s2)): s1.name == s2.name && s1.sourceDescription == s2.sourceDescription
            case let (.custom(s1), .custom(s2)): s1.name == s2.name && s1.sourceDescription == s2.sourceDescription
            default: false
            }
        }

        /// Hashes what ``==`` compares.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case let .api(base, key): hasher.combine(0); hasher.combine(base); hasher.combine(key)
            case let .urlList(text, name): hasher.combine(1); hasher.combine(text); hasher.combine(name)
            case let .plan(path, source): hasher.combine(3); hasher.combine(path); hasher.combine(source)
            case let .service(source): hasher.combine(2); hasher.combine(source.name); hasher.combine(source.sourceDescription)
            case let .custom(source): hasher.combine(4); hasher.combine(source.name); hasher.combine(source.sourceDescription)
            }
        }
    }

    /// Where the photos come from.
    public var source: Source
    /// The gallery folder (created when missing; re-runs are incremental).
    public var folder: String
    /// At most this many listing pages (the API's `total_pages` may stop the run earlier).
    public var pages: Int = 5
    /// Photos per listing page (`rpp`).
    public var perPage: Int = 50
    /// Thumbnail sizes (longest edge, pixels), e.g. `[256, 512]` for high-density screens.
    public var thumbnailSizes: [Int] = [256]
    /// Keep photos the API marks NSFW.
    public var includeNSFW = false
    /// Download this image size when offered instead of the largest.
    public var imageSize: Int?
    /// Fetch the first page of each photo's comments for its page.
    public var comments = false
    /// JPEG quality of the thumbnails.
    public var jpegQuality = 85
    /// The thumbnails' encoding (`.auto`: PNG with alpha, else JPEG). A re-run with a fixed format
    /// remakes thumbnails recorded in another one.
    public var thumbnailFormat = ThumbnailFormat.auto
    /// More encodings of every thumbnail and display rendition (`.avif`, `.webp`), written beside the
    /// ``thumbnailFormat`` file under the same name; the pages offer them first (``GalleryPageOptions/sourceFormats``,
    /// which the run sets from this list).
    public var extraThumbnailFormats: [ThumbnailFormat] = []
    /// WebP quality of the thumbnails when they are WebP.
    public var webpQuality = 85
    /// AVIF quality and aom speed of the thumbnails when they are AVIF (see ``Thumbnailer/avifSpeed``).
    public var avifQuality = 75
    public var avifSpeed = 9
    /// Threads for decoding, scaling and encoding (default: the cores).
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Decode guards (pixel count, scans, bytes).
    public var decodeOptions = DecodeOptions()
    /// Photos handed on ahead of the finished ones (bounds memory; about two listing pages).
    public var lookahead = 100
    /// How often a listing page that is not JSON is asked for again.
    public var pageAttempts = 3
    /// The largest listing or comments page accepted, after decompression. A page of 50 photos is about
    /// 50-100 kB; the cap keeps a gzip bomb served as a page from taking hundreds of megabytes.
    public var maxPageBytes: Int64 = 16 << 20
    /// Lift the address rule for image URLs (see `GalleryRun.imageAddressPolicy`): by default a photo
    /// listed by an API is fetched only from an address no more private than the API host's, and a
    /// listed URL may not redirect to a more private address than its own host's.
    public var allowPrivateAddresses = false
    /// Do only this slice of the job (``ShardSpec``) and write a shard part instead of the gallery's
    /// index, pages and manifest (``GalleryMerge`` writes those from every part). Nil: the whole job.
    public var shard: ShardSpec?
    /// Sent as `User-Agent` on API requests.
    public var userAgent = SourceClient.defaultUserAgent
    /// The longest wait (seconds) for a service's rate limit; a longer one stops the source (all done is kept).
    public var rateLimitWait: Double = 120
    /// Keys and tokens given for the source: redacted from every message, never recorded.
    public var secrets: [String] = []
    /// How the gallery's pages are laid out and what they show (`--show-location`, photos per index page).
    /// `showLocation` also decides whether the originals' EXIF GPS position is recorded at all.
    public var pageOptions = GalleryPageOptions()
    /// The AI opt-out signals to honour before a photo's body is read (`--respect-opt-out`): nil, none (a
    /// personal gallery is not training). An opted-out photo is recorded with its signal
    /// (`opted_out: X-Robots-Tag noai`), counted apart from failures, and not downloaded.
    public var optOut: OptOutPolicy?
    /// How to lift the address rule, quoted when it refuses a connection.
    public var privateAddressesHint = "--allow-private-addresses lifts this"

    /// A job with default settings reading `source` into `folder`.
    public init(source: Source, folder: String) {
        self.source = source
        self.folder = folder
    }

    /// The text recorded as the gallery's source in the manifest.
    public var sourceDescription: String { photoSource.sourceDescription }
}
