import Foundation

/// Where a gallery's photos come from: every listing kind the run reads, behind one protocol. A 500px-style
/// API's pages (``PageAPISource``), a URL list (``URLListFileSource``), a plan (``PlanSource``) and the photo
/// services (``ServiceSource`` over a ``PhotoService``) each give the run a ``ListingReader``; the run has
/// one loop over it. ``ShardedSource`` wraps any of them to read one shard's slice.
///
/// A source holds no state of its own reading: ``reader(slice:context:)`` starts a new one each time.
/// What differs between the kinds beyond their listing is asked of the source too, never of the job's kind:
/// who named its image URLs (the address rule), its comments, the keys it carries.
///
/// A library user adds a listing of their own the same way (``GalleryJob/Source/custom(_:)``): a name, a
/// reader that hands on ``SelectedPhoto``s in ``ListingStep``s, and who named the image URLs.
public protocol PhotoSource: Sendable {
    /// The name said in notices: `500px`, `urls`, `plan` or the service's `--source` name.
    var name: String { get }
    /// What the manifest records as the gallery's source.
    var sourceDescription: String { get }
    /// How the listing divides among shards: by its pages, by its lines, or (nil) not at all (a cursor API).
    var shardUnit: ShardUnit? { get }
    /// A reader of the units (pages or lines) that `slice` owns; ``ShardSpec/whole``: the whole listing.
    /// Only ``ShardedSource`` asks for less than the whole.
    func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader
    /// Who named the image URLs the source hands on: the rule for image addresses follows it.
    var imageURLOrigin: ImageURLOrigin { get }
    /// Keys the source carries itself (a 500px consumer key), redacted like the job's own secrets; by default none.
    var secrets: [String] { get }
    /// The first page of photo `id`'s comments (`--comments`), or nil when the source has none (only a
    /// 500px-style API has) or they could not be read: comments are extras. By default nil.
    func comments(of id: Int, engine: TransferEngine, maxBytes: Int64) async -> [Comment]?
    /// Called once a photo's original has been downloaded (Unsplash asks to be told); by default nothing.
    func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError)
}

extension PhotoSource {
    public var secrets: [String] { [] }
    public func comments(of id: Int, engine: TransferEngine, maxBytes: Int64) async -> [Comment]? { nil }
    public func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError) {}
}

extension GalleryJob {
    /// The job's listing as a ``PhotoSource``, whole (what ``GalleryRun/plan()`` reads): the one place the
    /// job's kind of listing is switched on; the run asks the source everything else.
    var photoSource: any PhotoSource {
        switch source {
        case .api(let base, let key):
            PageAPISource(api: FiveHundredPxService(base: base, consumerKey: key, perPage: perPage, pageAttempts: pageAttempts))
        case .urlList(let text, let name):
            URLListFileSource(text: text, fileName: name)
        case .plan(let path, let source):
            PlanSource(path: path, recordedSource: source)
        case .service(let service):
            ServiceSource(service: service)
        case .custom(let source):
            source
        }
    }
}

/// Who named a source's image URLs, which decides where a run may connect to fetch them
/// (``PhotoSource/imageURLOrigin``; `GalleryJob.allowPrivateAddresses` lifts the rule whatever it is).
///
/// Image URLs a server listed may not make us connect anywhere more private than that server: a public
/// API cannot point us at loopback, a private network or link-local (cloud metadata) addresses, checked
/// by the engine on the address each connection really goes to. An API on loopback (the demo catalogue)
/// may use any address. URLs the user listed may have any host of their own, but a redirect may not
/// lead to a more private address than it.
public enum ImageURLOrigin: Sendable, Hashable {
    /// The user named them (a URL list).
    case user
    /// A server listed them (a 500px-style API, a photo service).
    case server
    /// As a plan records: a server, when the plan records the address its listing came from; else the
    /// user (a plan of a URL list records no listing address).
    case recorded

    /// The rule for image downloads, given the class of the address the listing came from (nil: none
    /// noted). `hint` says how to lift the rule, quoted when it refuses a connection.
    func addressPolicy(listingAddress: AddressClass?, hint: String) -> AddressPolicy {
        let namedByUser = switch self {
        case .user: true
        case .server: false
        case .recorded: listingAddress == nil
        }
        if namedByUser {
            return AddressPolicy(.atMostAsPrivateAsOrigin,
                                 explanation: "a listed URL may not redirect to a more private address than its own "
                                    + "host's; \(hint)")
        }
        // A server's photos are only handed on after its page arrived, so the class is known; fail closed if not.
        let api = listingAddress ?? .publicInternet
        return AddressPolicy(.atMostAsPrivateAs(api), explanation: "the API host is \(api); \(hint)")
    }
}

/// What a listing divides into among shards.
public enum ShardUnit: Sendable, Hashable {
    /// Listing pages p (from 1): a shard owns pages with (p - 1) mod N == K.
    case page
    /// Lines i (from 0) of a file: a shard owns lines with i mod N == K.
    case line
}

/// What a reader needs from the run: the API client, the job's selection rules, and two callbacks.
public struct SourceContext: Sendable {
    /// The API requests' client (User-Agent, rate limits, redaction).
    public var client: SourceClient
    /// At most this many listing pages or batches.
    public var pages: Int
    /// Keep photos marked NSFW.
    public var includeNSFW: Bool
    /// Prefer this image size when offered.
    public var imageSize: Int?
    /// Whether the run is stopping (a page cut short by a stop is not a failure of the source).
    public var isStopping: @Sendable () -> Bool
    /// Records the address a listing came from (the rule for image addresses follows it).
    public var noteAddress: @Sendable (String?) -> Void
}

/// A listing being read: the run pulls steps until nil (the end, or the run stopping), then calls ``close()``.
public protocol ListingReader {
    /// The next step, or nil at the end of the listing.
    mutating func next() async -> ListingStep?
    /// Cancels what the reader started ahead (page fetches); called once the run stops pulling.
    mutating func close()
}

extension ListingReader {
    public mutating func close() {}
}

/// One step of a listing.
public enum ListingStep: Sendable {
    /// A listing page (or batch) arrived: counted, announced, its unusable photos failed, its photos handed on.
    case page(ListedPage)
    /// More photos of the page announced last (a URL list or plan is one "page" read in pieces).
    case photos([SelectedPhoto])
    /// A page, or the whole listing, could not be read.
    case failure(ListingFailure)
}

/// A page of a listing as the run reports it.
public struct ListedPage: Sendable {
    /// Its number, from 1 (a URL list or a plan: 1).
    public var number: Int
    public var totalPages: Int?
    /// Photos it added (those handed on, here or in the ``ListingStep/photos(_:)`` steps after it).
    public var added: Int
    /// Items that could not be read, each "item N: reason" or "line N: reason".
    public var skipped: [String] = []
    /// Listed photos with no usable (http(s)) image URL: they go in the manifest as failed.
    public var unusable: [Photo] = []
    /// The photos to hand on.
    public var photos: [SelectedPhoto] = []
    /// Whether the page counts as fetched (a URL list with no usable line is announced, not counted).
    public var counted = true

    public init(number: Int, totalPages: Int? = nil, added: Int, skipped: [String] = [], unusable: [Photo] = [],
                photos: [SelectedPhoto] = [], counted: Bool = true) {
        (self.number, self.totalPages, self.added, self.skipped) = (number, totalPages, added, skipped)
        (self.unusable, self.photos, self.counted) = (unusable, photos, counted)
    }
}

/// A listing that failed, in whole or one page.
public struct ListingFailure: Sendable, Equatable {
    /// The page that failed (reported and counted as failed), or nil: the listing as a whole.
    public var page: Int?
    /// What went wrong, as the summary and the progress say it.
    public var reason: String
    /// The source could not be read at all (exit status 3 when nothing was fetched).
    public var isSourceError = false
    /// The source stopped early (a spent rate-limit budget), keeping what was handed on.
    public var stopsSource = false

    public init(page: Int? = nil, reason: String, isSourceError: Bool = false, stopsSource: Bool = false) {
        (self.page, self.reason, self.isSourceError, self.stopsSource) = (page, reason, isSourceError, stopsSource)
    }
}

/// A reader that gives one failure, then ends.
struct FailedReader: ListingReader {
    var failure: ListingFailure?

    mutating func next() async -> ListingStep? {
        defer { failure = nil }
        return failure.map(ListingStep.failure)
    }
}

extension PageSelection {
    /// The photos of `page` left out for having no usable (http(s)) image URL.
    func unusable(of page: PhotoPage) -> [Photo] {
        rejected.filter { $0.reason == .noUsableImage }.compactMap { rejected in page.photos.first { $0.id == rejected.id } }
    }
}
