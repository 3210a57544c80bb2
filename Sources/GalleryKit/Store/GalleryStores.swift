import Foundation

/// What a store may need besides its location: the settings of a remote one (the command line's
/// `--s3-*`, `--work-dir`, `--journal-upload-interval` and `--ca-certificates`). A folder needs none.
public struct GalleryStoreOptions: Sendable {
    /// The service's URL (`--s3-endpoint`); the kind's default service when nil.
    public var endpoint: String?
    /// The region requests are signed for; else from the environment.
    public var region: String?
    /// How the bucket is addressed (`path` or `virtual`); the service's default when nil.
    public var addressing: String?
    /// Uploads at once.
    public var uploads = 32
    /// The local folder the gallery is made in before it is stored; a folder of its own under the
    /// user's cache when nil.
    public var workFolder: String?
    /// How often a run's journal goes to the store (nil: only at the end).
    public var checkpointInterval: Duration? = .seconds(180)
    /// The certificates to trust for a store that opens connections of its own (a merge's).
    public var caCertificates: String?
    /// Where keys and defaults are read from.
    public var environment: [String: String] = ProcessInfo.processInfo.environment

    public init() {}
}

/// A kind of store other than a folder, named by its locations' scheme (`s3://`). A new kind is one
/// type conforming to this, listed in ``GalleryStores/kinds``: the commands open every store through
/// ``GalleryStores/open(_:options:engine:)`` and never name a kind.
public protocol GalleryStoreKind {
    /// Whether `location` names a store of this kind.
    static func names(_ location: String) -> Bool
    /// Settings the kind cannot use, said as a usage error before anything runs (nil: usable).
    static func problem(with options: GalleryStoreOptions) -> String?
    /// Gives the host of the store at `location` its own limits in `configuration`, the engine that
    /// also downloads the photos: the uploads neither wait behind the downloads nor count in their
    /// progress or rate. Nothing when the location is unusable (``open(_:options:engine:)`` says why).
    static func limitHost(of location: String, options: GalleryStoreOptions, in configuration: inout TransferConfiguration)
    /// The store at `location`, its requests on `engine` (given limits by ``limitHost(of:options:in:)``),
    /// or on an engine of its own (closed by ``GalleryStore/close()``) when nil.
    static func open(_ location: String, options: GalleryStoreOptions,
                     engine: TransferEngine?) throws(GalleryStoreError) -> any GalleryStore
    /// A dataset's output at `location` (see ``GalleryStores/openDatasetSink(_:options:engine:)``), on
    /// `engine` like ``open(_:options:engine:)``.
    static func openDatasetSink(_ location: String, options: GalleryStoreOptions,
                                engine: TransferEngine?) throws(GalleryStoreError) -> any DatasetStoreSink
    /// The objects under `location` to read (a finished dataset reshaped from the store), on an engine of
    /// their own (the caller shuts it down), and the local work folder for their copies.
    static func openObjectStore(_ location: String, options: GalleryStoreOptions)
        throws(GalleryStoreError) -> (store: any ObjectStore, engine: TransferEngine, workFolder: String)
}

/// Opens the store a location names: an object store's URL (`s3://BUCKET/PREFIX`), else a folder.
///
/// ```swift
/// var configuration = TransferConfiguration()
/// GalleryStores.limitHost(of: out, options: options, in: &configuration)
/// let engine = TransferEngine(configuration: configuration)
/// let store = try GalleryStores.open(out, options: options, engine: engine)
/// try await store.prepare(journal: GalleryNaming.journalPath)
/// let run = GalleryRun(job: job, engine: engine, store: store)   // job.folder = store.folder
/// ```
public enum GalleryStores {
    /// The kinds of store besides a folder.
    public static var kinds: [any GalleryStoreKind.Type] { [S3StoreKind.self] }

    /// The kind `location` names; nil for a folder.
    public static func kind(of location: String) -> (any GalleryStoreKind.Type)? {
        kinds.first { $0.names(location) }
    }

    /// Whether `location` names a store rather than a folder.
    public static func isRemote(_ location: String) -> Bool { kind(of: location) != nil }

    /// Settings the store at `location` cannot use (nil: usable; a folder uses none).
    public static func problem(with options: GalleryStoreOptions, for location: String) -> String? {
        kind(of: location)?.problem(with: options)
    }

    /// See ``GalleryStoreKind/limitHost(of:options:in:)``; nothing for a folder.
    public static func limitHost(of location: String, options: GalleryStoreOptions, in configuration: inout TransferConfiguration) {
        kind(of: location)?.limitHost(of: location, options: options, in: &configuration)
    }

    /// The store at `location`: a ``LocalFolderStore`` for a folder, else its kind's. A malformed
    /// location, unusable settings or missing keys are ``GalleryStoreError/settings(_:)``.
    public static func open(_ location: String, options: GalleryStoreOptions = GalleryStoreOptions(),
                            engine: TransferEngine? = nil) throws(GalleryStoreError) -> any GalleryStore {
        guard let kind = kind(of: location) else { return LocalFolderStore(folder: location) }
        if let problem = kind.problem(with: options) { throw .settings(problem) }
        return try kind.open(location, options: options, engine: engine)
    }
}
