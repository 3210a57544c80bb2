import Foundation
import GallerySync
import Synchronization

/// One run of the gallery pipeline: listing pages -> photo downloads -> thumbnails -> gallery folder,
/// with every stage overlapping. Pages are fetched one ahead of need; each photo is a task that
/// downloads through the `TransferEngine` (its own limits apply) and then thumbnails on the
/// ``WorkerPool``; the feed runs at most ``GalleryJob/lookahead`` photos ahead of the finished
/// ones, so memory stays flat. Progress is journaled, so a re-run (or a run after SIGKILL) picks up
/// where this one left off, and the manifest and pages are written from the journal at the end.
public final class GalleryRun: Sendable {
    /// What the run does.
    public let job: GalleryJob
    let engine: TransferEngine
    /// The batch runner the photos run through: its pool, its stop.
    let runner: BatchRunner
    var pool: WorkerPool { runner.pool }
    let cache: any ImageCaching
    let observers: [any GalleryObserver]
    let permits: AsyncPermits
    let summary = Locked(GalleryRunSummary())
    /// The class of the address the API's listing pages came from (the most public one seen).
    let apiAddressClass = Locked<AddressClass?>(nil)
    /// The address of that class (recorded in a plan, so a run from it applies the same rule).
    let apiAddress = Locked<String?>(nil)
    /// The API requests' client: User-Agent, rate limits, redaction (see ``SourceClient``).
    let client: SourceClient
    /// Where the photos come from: the job's whole listing (a shard reads it through ``ShardedSource``).
    let listing: any PhotoSource
    /// Where the finished gallery's files go (``GalleryJob/folder`` is where they are made).
    public let store: any GalleryStore
    /// The opt-out signals honoured before a photo is downloaded (``GalleryJob/optOut``), or nil.
    let optOut: OptOutGate?

    /// A run of `job`, not started yet (see ``run()``).
    ///
    /// - Parameters:
    ///   - job: what to fetch and where the gallery goes.
    ///   - engine: the transfer engine for pages and photos (its limits apply).
    ///   - observers: receivers of the run's ``GalleryEvent``s, such as a progress display.
    ///   - cache: decoded thumbnails, keyed by content hash and size. The default is a small cache
    ///     of this run's own, so memory does not grow with the number of photos.
    ///   - store: where each finished file goes; the default, a ``LocalFolderStore``, is the folder itself.
    public init(job: GalleryJob, engine: TransferEngine, cache: any ImageCaching = ImageCache(costLimit: 32 << 20),
                observers: [any GalleryObserver] = [], store: (any GalleryStore)? = nil) {
        self.job = job
        self.store = store ?? LocalFolderStore(folder: job.folder)
        self.engine = engine
        optOut = job.optOut.map { OptOutGate(policy: $0, engine: engine) }
        self.cache = cache
        self.observers = observers
        listing = job.photoSource
        runner = BatchRunner(threads: job.workers)
        let permits = AsyncPermits(job.lookahead)
        self.permits = permits
        // A stop closes the feed's permits: no photo waiting for one is handed on.
        runner.onStop { Task { await permits.close() } }
        var settings = SourceClient.Settings(userAgent: job.userAgent)
        settings.maxWait = job.rateLimitWait
        settings.maxBodyBytes = job.maxPageBytes
        settings.requestAttempts = job.pageAttempts
        let waits = Locked<[any GalleryObserver]>(observers)
        client = SourceClient(engine: engine, settings: settings, secrets: job.secrets + listing.secrets, onWait: { service, seconds, reason in
            for observer in waits.withLock({ $0 }) {
                observer.gallery(.sourceNotice(service: service, message: "waiting \(Int(seconds.rounded(.up))) s: \(reason)"))
            }
        })
    }

    /// Stops starting new work: no more pages or photos; running downloads are cancelled with their
    /// partial files kept for the next run. ``run()`` then writes the gallery for what is done. `signal`
    /// (SIGINT, SIGTERM) is kept for the exit status (``GalleryRunSummary/runFailure``).
    public func requestStop(signal: Int32 = BatchRunner.stopWithoutSignal) {
        runner.requestStop(signal: signal)
    }

    /// Whether ``requestStop(signal:)`` was called.
    public var isStopping: Bool { runner.isStopping }

    /// Runs the job to its end (or until ``requestStop()``) and writes `index.html`, the photo pages and
    /// `gallery.json` (a shard: its part). Throws only when the gallery folder itself cannot be written.
    ///
    /// Three steps: open the workspace (folders, journal), feed the source into photo tasks until it ends
    /// or the run stops, and finish (a shard's part, or the gallery, through the store).
    public func run() async throws(PipelineError) -> GalleryRunSummary {
        let started = Date()
        let workspace: RunWorkspace
        do { workspace = try RunWorkspace(job: job, store: store) } catch { throw .gallery(error) }
        await runPhotos(from: job.shardedSource, in: workspace)
        let result = summary.withLock { s in
            s.stopSignal = runner.stopSignal
            return s
        }
        do {
            try await RunFinisher(job: job, store: store, pool: pool).finish(workspace, result: result, started: started)
        } catch { throw .gallery(error) }
        return result
    }

    /// The address rule for photo downloads: the source's (``ImageURLOrigin``, by who named its image
    /// URLs, and the most public address its listing came from), unless `GalleryJob.allowPrivateAddresses`
    /// lifts it.
    var imageAddressPolicy: AddressPolicy {
        if job.allowPrivateAddresses { return .unrestricted }
        return listing.imageURLOrigin.addressPolicy(listingAddress: apiAddressClass.withLock { $0 },
                                                    hint: job.privateAddressesHint)
    }

    /// Records the address a listing page came from (CURLINFO_PRIMARY_IP). Should pages come from
    /// differently classed addresses, the most public one counts, so the rule only ever gets stricter.
    func noteAPIAddress(_ text: String?) {
        guard let kind = text.flatMap(IPAddress.init)?.addressClass, let privacy = kind.privacy else { return }
        apiAddressClass.withLock { current in
            if let known = current?.privacy, known <= privacy { return }
            current = kind
            apiAddress.withLock { $0 = text }
        }
    }

    func emit(_ event: GalleryEvent) {
        for observer in observers { observer.gallery(event) }
    }

    func count(_ change: (inout GalleryRunSummary) -> Void) {
        summary.withLock { change(&$0) }
    }
}
