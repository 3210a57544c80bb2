import Foundation
import GalleryObjectStore
import GalleryTransfer

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
/// ``GalleryStores`` and never name a kind.
public protocol GalleryStoreKind {
    /// Whether `location` names a store of this kind.
    static func names(_ location: String) -> Bool
    /// Settings the kind cannot use, said as a usage error before anything runs (nil: usable).
    static func problem(with options: GalleryStoreOptions) -> String?
    /// Gives the host of the store at `location` its own limits in `configuration`, the engine that
    /// also downloads the photos: the uploads neither wait behind the downloads nor count in their
    /// progress or rate. Nothing when the location is unusable (opening it says why).
    static func limitHost(of location: String, options: GalleryStoreOptions, in configuration: inout TransferConfiguration)
    /// The objects under `location`, their requests on `engine` (given limits by
    /// ``limitHost(of:options:in:)``) or, when nil, on an engine of their own (``StoreObjects/ownedEngine``);
    /// uploads are spooled in `spool`, a folder under the work folder. The gallery's store and the dataset's
    /// sink are each made over these (``GalleryStores``' `open` and `openDatasetSink`).
    static func openObjects(_ location: String, options: GalleryStoreOptions, engine: TransferEngine?,
                            spool: String) throws(GalleryStoreError) -> StoreObjects
}

/// A store location opened as bytes: the objects under it, the engine their requests run on when it is
/// their own, and the local work folder for copies and spooled uploads.
public struct StoreObjects {
    /// The objects under the location.
    public let store: any ObjectStore
    /// The engine opened for them when none was given (whoever opened them shuts it down).
    public let ownedEngine: TransferEngine?
    /// The local folder for their copies (`--work-dir`, or one of the location's own).
    public let workFolder: String

    public init(store: any ObjectStore, ownedEngine: TransferEngine?, workFolder: String) {
        self.store = store
        self.ownedEngine = ownedEngine
        self.workFolder = workFolder
    }
}

/// The stores a location may name besides a folder: an object store's URL (`s3://BUCKET/PREFIX`). The
/// gallery opens its store from here (`GalleryStores.open`), the dataset its output (`openDatasetSink`)
/// and its stored input, each over the kind's ``GalleryStoreKind/openObjects(_:options:engine:spool:)``.
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
}
