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
    let pool: WorkerPool
    let cache: ImageCache
    let observers: [any GalleryObserver]
    let permits: AsyncPermits
    private let stopping = Atomic<Bool>(false)
    /// The photo work of the running ``run()``, so that a stop can cancel the downloads under way
    /// even after the feed has handed on its last photo.
    private let work = Locked<Task<Void, Never>?>(nil)
    let summary = Locked(GalleryRunSummary())
    /// The comments fetched so far (`--comments`), kept in a file, not in memory.
    let comments = Locked<CommentSpill?>(nil)
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

    /// A run of `job`, not started yet (see ``run()``).
    ///
    /// - Parameters:
    ///   - job: what to fetch and where the gallery goes.
    ///   - engine: the transfer engine for pages and photos (its limits apply).
    ///   - observers: receivers of the run's ``GalleryEvent``s, such as a progress display.
    ///   - cache: decoded thumbnails, keyed by content hash and size. The default is a small cache
    ///     of this run's own, so memory does not grow with the number of photos.
    ///   - store: where each finished file goes; the default, a ``LocalFolderStore``, is the folder itself.
    public init(job: GalleryJob, engine: TransferEngine, cache: ImageCache = ImageCache(costLimit: 32 << 20),
                observers: [any GalleryObserver] = [], store: (any GalleryStore)? = nil) {
        self.job = job
        self.store = store ?? LocalFolderStore(folder: job.folder)
        self.engine = engine
        self.cache = cache
        self.observers = observers
        listing = job.photoSource
        pool = WorkerPool(threads: job.workers)
        permits = AsyncPermits(job.lookahead)
        var settings = SourceClient.Settings(userAgent: job.userAgent)
        settings.maxWait = job.rateLimitWait
        settings.maxBodyBytes = job.maxPageBytes
        settings.requestAttempts = job.pageAttempts
        var secrets = job.secrets
        if case .api(_, let key?) = job.source { secrets.append(key) }
        let waits = Locked<[any GalleryObserver]>(observers)
        client = SourceClient(engine: engine, settings: settings, secrets: secrets, onWait: { service, seconds, reason in
            for observer in waits.withLock({ $0 }) {
                observer.gallery(.sourceNotice(service: service, message: "waiting \(Int(seconds.rounded(.up))) s: \(reason)"))
            }
        })
    }

    deinit { pool.shutdown() }

    /// Stops starting new work: no more pages or photos; running downloads are cancelled with their
    /// partial files kept for the next run. ``run()`` then writes the gallery for what is done.
    public func requestStop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        let permits = self.permits
        Task { await permits.close() }
        work.withLock { $0?.cancel() }
    }

    /// Whether ``requestStop()`` was called.
    public var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Runs the job to its end (or until ``requestStop()``) and writes `index.html`, the photo pages and
    /// `gallery.json`. Throws only when the gallery folder itself cannot be written.
    public func run() async throws(PipelineError) -> GalleryRunSummary {
        let started = Date()
        let journal: Journal
        let layout = job.shard.map { ShardLayout(folder: job.folder, shard: $0) }
        do {
            // The engine writes originals straight into photos/ (a shard: into its staging folder,
            // then renames them there); thumbnails make their own folders.
            try POSIX.makeDirectories(job.folder + "/photos")
            if let layout { try POSIX.makeDirectories(job.folder + "/" + layout.stagingFolder) }
            let journalPath = layout?.journalPath ?? GalleryNaming.journalPath
            journal = try Journal(folder: job.folder, journalPath: journalPath)
            if job.comments {
                let spill = try CommentSpill(path: job.folder + "/" + (journalPath as NSString).deletingLastPathComponent
                                                 + "/comments.jsonl")
                comments.withLock { $0 = spill }
            }
            // Running again: the shard is not done until this run writes its part.
            if let layout { store.remove(layout.summaryPath) }
        } catch { throw .gallery(error) }
        let (photos, feed) = AsyncStream<QueuedPhoto>.makeStream()
        // An unstructured task, kept where requestStop() can cancel it: cancelling it cancels the
        // feed and every photo task (their downloads end as `.cancelled`, partials kept).
        // A discarding group: a plain task group keeps every finished child until its result is
        // consumed, which held ~30 KB per photo to the end of the run (288 MB at 8,000 photos).
        let running = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.feed(from: self.job.shardedSource, into: feed, journal: journal) }
                for await photo in photos {
                    group.addTask {
                        await self.process(photo, journal: journal)
                        await self.permits.release()
                    }
                }
            }
        }
        work.withLock { $0 = running }
        // A store away from this machine gets the journal every so often, so a run elsewhere resumes from it.
        let journalPath = layout?.journalPath ?? GalleryNaming.journalPath
        let checkpoints = store.checkpointInterval.map { interval in
            Task { [store] in
                while (try? await Task.sleep(for: interval)) != nil {
                    try? await store.checkpoint(journal: journalPath)
                }
            }
        }
        // A stop that came before the task was recorded found nothing to cancel.
        if isStopping { running.cancel() }
        await withTaskCancellationHandler { await running.value } onCancel: { running.cancel() }
        work.withLock { $0 = nil }
        checkpoints?.cancel()
        let result = summary.withLock { s in
            s.interrupted = isStopping
            return s
        }
        // Written from the journal one entry at a time: the gallery is never in memory whole.
        let spill = comments.withLock { spill in defer { spill = nil }; return spill }
        do {
            try journal.compact()
            if let layout {
                // An interrupted shard is not done: it leaves no part, and its journal resumes it.
                if !result.interrupted {
                    try ShardPartWriter(layout: layout, source: job.sourceDescription, parallel: pool)
                        .write(journal, comments: { spill?.comments(of: $0) }, run: result, started: started)
                }
                // Every photo file first, then the journal, the part, and its summary: the summary marks the part complete.
                try await store.flush()
                try await store.checkpoint(journal: journalPath)
                if !result.interrupted {
                    store.publish(layout.photosPath)
                    try await store.flush()
                    store.publish(layout.summaryPath)
                    try await store.flush()
                }
            } else {
                var writer = GalleryWriter(folder: job.folder, source: job.sourceDescription)
                writer.pageOptions = job.pageOptions
                writer.pageOptions.sourceFormats = job.extraThumbnailFormats.map { $0.resolved(hasAlpha: false) }
                writer.parallel = pool
                writer.store = store
                // The photo files before the pages that link to them (a store publishes in any order).
                try await store.flush()
                try writer.write(journal, comments: { spill?.comments(of: $0) ?? [] })
                try await store.flush()
                try await store.checkpoint(journal: journalPath)
            }
        } catch { throw .gallery(error) }
        return result
    }

    func emit(_ event: GalleryEvent) {
        for observer in observers { observer.gallery(event) }
    }

    func count(_ change: (inout GalleryRunSummary) -> Void) {
        summary.withLock { change(&$0) }
    }
}
