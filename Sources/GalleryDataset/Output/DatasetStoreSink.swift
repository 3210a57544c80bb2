import DatasetFormats
import GalleryRunner
import GallerySystem
import GalleryTransfer

/// Where `fetch-gallery dataset` writes its shards: a local folder (``LocalFolderSink``) or a store
/// (`s3://BUCKET/PREFIX`), opened by ``GalleryStores/openDatasetSink(_:options:engine:)`` so that the
/// command names no kind of store.
public protocol DatasetStoreSink: DatasetSink {
    /// Where the dataset is, for messages (`out/`, `s3://bucket/prefix/`).
    var location: String { get }
    /// Before the run reads a row: checks that the store answers and learns what it holds (what
    /// ``DatasetSink/list()`` and ``DatasetSink/exists(_:)`` then say).
    func prepare() async throws(GalleryStoreError)
    /// After the run: waits until every file closed so far is stored; returns those that could not be,
    /// each as `NAME: reason` (a shard with one of them has no `_stats.json` in the store).
    func finish() async -> [String]
    /// What the store did, for the command's last line; nil for a folder.
    var activity: String? { get }
    /// Lets go of the connections the store opened; once, when the command is done.
    func close()
    /// A local folder the run may keep its temporary files in (large downloaded bodies: see ``RowSpool``).
    var scratchFolder: String { get }
    /// The dataset's folder on this machine, where earlier runs' shards are read back from (`--retry-failed`, a
    /// stopped run's partial shards, the trainers' indexes); nil for a store elsewhere.
    var localFolder: String? { get }
    /// The bytes of the small file `name` as the store holds it (an earlier run's `shardindex.json`); nil when it
    /// cannot be read. A folder's files are read in place instead: nil.
    func read(_ name: String) async -> [UInt8]?
}

extension LocalFolderSink: DatasetStoreSink {
    public var location: String { folder }
    public func prepare() async throws(GalleryStoreError) {}
    public func finish() async -> [String] { [] }
    public var activity: String? { nil }
    public func close() {}
    /// Inside the dataset's folder, so the bodies are on its disk (removed when the run ends).
    public var scratchFolder: String { folder + "/" + RowSpool.folderName }
    public var localFolder: String? { folder }
    public func read(_ name: String) async -> [UInt8]? { nil }
}

extension GalleryStores {
    /// The dataset output `location` names: a ``LocalFolderSink`` (made if missing) for a folder, else
    /// an ``ObjectStoreSink`` over its kind's objects. A malformed location, unusable settings or missing keys are
    /// ``GalleryStoreError/settings(_:)``; a folder that cannot be made is ``GalleryStoreError/failed(_:)``.
    public static func openDatasetSink(_ location: String, options: GalleryStoreOptions = GalleryStoreOptions(),
                                       engine: TransferEngine? = nil) throws(GalleryStoreError) -> any DatasetStoreSink {
        guard let kind = kind(of: location) else {
            do { return try LocalFolderSink(folder: location) } catch { throw .failed("\(location): \(error)") }
        }
        if let problem = kind.problem(with: options) { throw .settings(problem) }
        let objects = try kind.openObjects(location, options: options, engine: engine, spool: datasetSpool)
        let spool = objects.workFolder + "/" + datasetSpool
        do throws(SystemError) { try Syscall.makeDirectories(spool) } catch {
            objects.ownedEngine?.shutdown()
            throw .settings("cannot use the work folder \(objects.workFolder): \(error)")
        }
        return ObjectStoreSink(store: objects.store, scratchFolder: spool + "/rows", ownedEngine: objects.ownedEngine)
    }

    /// Where a dataset's shards wait for their upload, under a store's work folder (and a stored
    /// dataset's copies, reshaped).
    static let datasetSpool = "dataset-spool"
}
