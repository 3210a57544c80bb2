/// Where a finished gallery's files go.
///
/// A run makes every file of the gallery in a local folder (``folder``): originals are downloaded
/// there, thumbnails encoded there, pages rendered there, each published whole (see ``AtomicFile``).
/// Each finished file is then handed to the store with ``publish(_:)``; the store decides where it
/// lives. ``LocalFolderStore`` keeps it where it is (the folder is the gallery); an object store
/// uploads it and may drop the local copy. What the run asks about the gallery's files
/// (``size(of:)``) it asks the store, never the folder, so a resumed run sees what the store holds.
public protocol GalleryStore: Sendable {
    /// The local folder the run makes the gallery's files in (the gallery itself for a local store;
    /// a work folder otherwise). Paths handed to the store are relative to it.
    var folder: String { get }
    /// Where the gallery is, for messages (`photos/`, `s3://bucket/prefix/`).
    var location: String { get }
    /// The size of the finished file at `path` in the store, or nil when it has none.
    func size(of path: String) -> Int64?
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
}

extension GalleryStore {
    public var checkpointInterval: Duration? { nil }
    public func checkpoint(journal path: String) async throws(GalleryError) {}

    /// ``publish(_:)`` for several files, in order.
    public func publish(_ paths: [String]) { for path in paths { publish(path) } }
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

    /// The `Content-Type` of the file at `path`, from its extension: an image's from ``ImageFormat``,
    /// the gallery's own files' here.
    public static func contentType(of path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if let format = ImageFormat(fileExtension: ext) { return format.mediaType }
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "json": return "application/json"
        case "jsonl": return "application/x-ndjson"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
