/// What happens during a run, for progress displays and logs. Delivered from many tasks at once:
/// observers must be thread-safe and quick.
public enum GalleryEvent: Sendable {
    /// A listing page arrived: how many photos it added, and how many items on it were unusable.
    case pageFetched(page: Int, totalPages: Int?, added: Int, skippedItems: [String])
    /// A listing page could not be read (after retries).
    case pageFailed(page: Int, reason: String)
    /// A photo joined the run (the total to do grows).
    case photoQueued(id: Int, name: String)
    /// A photo is in the gallery: `downloaded` bytes fetched this run (0 when reused from disk).
    case photoFinished(id: Int, name: String, downloaded: Int64, thumbnailsMade: Int)
    /// A photo failed; it is in the manifest with this reason.
    case photoFailed(id: Int, name: String, url: String, reason: String)
    /// Something the user should know about the source that is not a failure: a wait its rate limit asks
    /// for, a download report the service did not take.
    case sourceNotice(service: String, message: String)
}

/// Receives ``GalleryEvent``s. The CLI's progress bar is one; library users can add their own.
public protocol GalleryObserver: Sendable {
    func gallery(_ event: GalleryEvent)
}

/// The outcome of a run.
public struct GalleryRunSummary: Sendable {
    /// Listing pages read.
    public var pagesFetched = 0
    /// Listing pages that could not be read.
    public var pagesFailed = 0
    /// The photos: selected (``BatchTally/items``), in the gallery, failed, opted out; and the stop.
    public var tally = BatchTally()
    /// Photos selected for the gallery.
    public var photosQueued: Int { get { tally.items } set { tally.items = newValue } }
    /// Photos that made it into the gallery.
    public var photosOK: Int { get { tally.succeeded } set { tally.succeeded = newValue } }
    /// Photos that failed.
    public var photosFailed: Int { get { tally.failed } set { tally.failed = newValue } }
    /// Photos left out because their site opted them out of AI use (``GalleryJob/optOut``): not failures.
    public var photosOptedOut: Int { get { tally.optedOut } set { tally.optedOut = newValue } }
    /// Photo bytes downloaded this run.
    public var bytesDownloaded: Int64 = 0
    /// Thumbnails written this run.
    public var thumbnailsMade = 0
    /// The run stopped early (Ctrl-C, SIGTERM, or `requestStop`).
    public var interrupted: Bool { get { tally.isStopped } set { tally.isStopped = newValue } }
    /// The signal that stopped it (nil when it ran to its end, ``BatchRunner/stopWithoutSignal`` for a stop by code).
    public var stopSignal: Int32? { get { tally.stopSignal } set { tally.stopSignal = newValue } }
    /// Nothing could be read from the source at all (the first page failed, or the list was unusable).
    public var sourceError: String?
    /// The source stopped before its end (its service's rate-limit budget is spent): what it said.
    /// Everything done before is kept; a re-run carries on.
    public var sourceStopped: String?

    /// All zero.
    public init() {}
}
