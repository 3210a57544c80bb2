/// Where a finished gallery's files go.
///
/// A run makes every file of the gallery in a local folder (``folder``): originals are downloaded
/// there, thumbnails encoded there, pages rendered there, each published whole (see ``AtomicFile``).
/// Each finished file is then handed to the store with ``publish(_:)``; the store decides where it
/// lives. ``LocalFolderStore`` keeps it where it is (the folder is the gallery); an object store
/// uploads it and may drop the local copy. What the run asks about the gallery's files
/// (``size(of:)``) it asks the store, never the folder, so a resumed run sees what the store holds.
///
/// Every requirement is each kind's own: a new kind says what each step of a command's lifecycle does
/// for it (no default makes it act as a folder).
public protocol GalleryStore: Sendable {
    /// The local folder the run makes the gallery's files in (the gallery itself for a local store;
    /// a work folder otherwise). Paths handed to the store are relative to it.
    var folder: String { get }
    /// Where the gallery is, for messages (`photos/`, `s3://bucket/prefix/`).
    var location: String { get }
    /// The size of the finished file at `path` in the store, or nil when it has none.
    func size(of path: String) -> Int64?
    /// Whether the store's files are exactly ``folder``'s (a folder gallery): a file the folder lacks, the
    /// store lacks, so a folder that began a run with no `photos/` stores no original.
    var holdsOnlyTheFolder: Bool { get }
    /// The file at `path` in ``folder`` is finished: publish it. Called from worker threads, never
    /// blocking on the network: a remote store queues the upload, and its failure comes out of ``flush()``.
    func publish(_ path: String)
    /// Deletes the file at `path` from the store (and the folder); one that is not there is fine.
    func remove(_ path: String)
    /// Waits until every file handed to ``publish(_:)`` before this call is published; throws the
    /// first failure of any of them.
    func flush() async throws(GalleryError)
    /// Puts the store's file at `path` into ``folder`` when only the store has it (a run that needs
    /// an original's bytes again); returns whether the file is in the folder now.
    func materialize(_ path: String) async throws(GalleryError) -> Bool
    /// How often the run hands its journal to ``checkpoint(journal:)`` while it goes on (nil: the
    /// journal stays in ``folder`` only, as in a folder gallery).
    var checkpointInterval: Duration? { get }
    /// Puts a copy of the journal at `path` in the store, once every file it records is published,
    /// so a run elsewhere can resume from it.
    func checkpoint(journal path: String) async throws(GalleryError)

    // MARK: a command's lifecycle, in the order the commands call it

    /// Before a run downloads anything: checks that the store answers, fetches into ``folder`` what a
    /// run resumed elsewhere needs (the journal at `path`, relative to ``folder``), and queues what a
    /// run killed before its uploads left unstored.
    func prepare(journal path: String) async throws(GalleryStoreError)
    /// Before a command that resumes nothing (`plan`): checks that the store answers.
    func check() async throws(GalleryStoreError)
    /// Where the plan is, for messages (`OUT/plan.jsonl`, `s3://BUCKET/PREFIX/plan.jsonl`).
    var planLocation: String { get }
    /// Stores the plan made in ``folder`` (``PlanFile/path(in:)``) whole, once it is finished.
    func publishPlan() async throws(GalleryStoreError)
    /// Puts the store's plan into ``folder`` and returns its local path; ``GalleryStoreError/unavailable(_:)``
    /// when the store holds none.
    func fetchPlan() async throws(GalleryStoreError) -> String
    /// Before a merge: puts every shard's part and summary into ``folder`` and returns the shards
    /// (`K-of-N`) known to have begun whose journals are not in ``folder``.
    func fetchParts() async throws(GalleryStoreError) -> Set<String>
    /// After a merge handed over every file: waits until they are published, then deletes what the
    /// earlier merge wrote and this one did not; returns how many files it deleted.
    func finishMerge() async throws(GalleryStoreError) -> Int
    /// What the store did, for the command's last lines (`12 objects stored, 3456 bytes uploaded`);
    /// nil when it has nothing to say (a folder).
    var activity: String? { get }
    /// Lets go of what the store holds of its own (connections it opened); once, when the command is done.
    func close()
}

extension GalleryStore {
    /// ``publish(_:)`` for several files, in order.
    public func publish(_ paths: [String]) { for path in paths { publish(path) } }

    /// The store's plan (see ``fetchPlan()``) as a run's source, its header read; an unreadable or
    /// damaged plan is ``GalleryStoreError/unavailable(_:)``.
    public func planSource() async throws(GalleryStoreError) -> GalleryJob.Source {
        let path = try await fetchPlan()
        do { return .plan(path: path, source: try PlanFile.header(at: path).source) } catch {
            throw .unavailable("\(error)")
        }
    }
}

/// What a gallery file is, from its path: how a store serves it.
public enum GalleryFileKind: Sendable, Hashable {
    /// A downloaded original (`photos/`): named by photo id, never rewritten.
    case original
    /// A thumbnail or display picture (`thumbs/`): named by photo id and size.
    case thumbnail
    /// An HTML page, the manifest, the viewer script: rewritten by each run.
    case page
    /// A run's own bookkeeping (journal, shard parts and summaries).
    case state

    /// The kind of the file at `path`, relative to the gallery root.
    public init(path: String) {
        if path.hasPrefix("photos/") { self = .original }
        else if path.hasPrefix("thumbs/") { self = .thumbnail }
        else if path.hasPrefix(".fetch-gallery/") || path.hasPrefix(ShardLayout.partsFolder + "/") { self = .state }
        else { self = .page }
    }

    /// Whether a file of this kind, once published, is never replaced (two shards publish the same bytes).
    public var isImmutable: Bool { self == .original || self == .thumbnail }

    /// The `Cache-Control` a browser should get: a year for the photo files, revalidation for the rest.
    public var cacheControl: String {
        isImmutable ? "public, max-age=31536000, immutable" : "no-cache"
    }

    /// The `Content-Type` of the file at `path` (see ``ObjectPutOptions/contentType(of:)``).
    public static func contentType(of path: String) -> String { ObjectPutOptions.contentType(of: path) }
}
