import Foundation
import GalleryObjectStore
import GalleryTransfer

/// `s3://BUCKET/PREFIX` as a kind of store (see ``GalleryStores``): an ``S3ObjectStore`` under the
/// gallery's store or the dataset's sink, its endpoint, keys and work folder from ``GalleryStoreOptions``.
public enum S3StoreKind: GalleryStoreKind {
    /// The work folder of `location` when none is given: `$XDG_CACHE_HOME/fetch-gallery/BUCKET/HASH`
    /// (`~/.cache` without it), HASH naming the prefix, so each gallery has its own and a re-run finds it.
    public static func defaultWorkFolder(for location: S3Location,
                                         environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return cache + "/fetch-gallery/" + location.bucket + "/" + String(SHA256.hex(Array(location.prefix.utf8)).prefix(16))
    }

    public static func names(_ location: String) -> Bool { location.hasPrefix("s3://") }

    public static func problem(with options: GalleryStoreOptions) -> String? {
        if options.uploads < 1 { return "--s3-uploads must be at least 1" }
        if let interval = options.checkpointInterval, interval <= .zero {
            return "--journal-upload-interval must be a positive number of seconds"
        }
        if let addressing = options.addressing, S3Endpoint.Addressing(rawValue: addressing) == nil {
            return "--s3-addressing is path or virtual"
        }
        return nil
    }

    static func endpoint(_ options: GalleryStoreOptions) throws(S3Error) -> S3Endpoint {
        try S3Endpoint(url: options.endpoint, region: options.region,
                       addressing: options.addressing.flatMap(S3Endpoint.Addressing.init(rawValue:)),
                       environment: options.environment)
    }

    public static func limitHost(of location: String, options: GalleryStoreOptions, in configuration: inout TransferConfiguration) {
        guard let parsed = try? S3Location(parsing: location), let endpoint = try? endpoint(options) else { return }
        configuration.hostLimits[TransferConfiguration.hostKey(of: endpoint.url(bucket: parsed.bucket))] =
            HostLimit(maxConcurrent: max(1, options.uploads))
    }

    /// The objects under `location` (an ``S3ObjectStore``), with keys from the environment or
    /// `~/.aws/credentials`; the work folder ``GalleryStoreOptions/workFolder`` or
    /// ``defaultWorkFolder(for:environment:)``.
    public static func openObjects(_ location: String, options: GalleryStoreOptions, engine: TransferEngine?,
                                   spool: String) throws(GalleryStoreError) -> StoreObjects {
        let parsed: S3Location, client: S3Client, owned: TransferEngine?
        do throws(S3Error) {
            parsed = try S3Location(parsing: location)
            let endpoint = try endpoint(options)
            let credentials = try S3Credentials.resolve(environment: options.environment)
            // Given the run's engine, the store's host has its own cap there (``limitHost``) and no rate
            // limit; otherwise (merge, a stored dataset read back) an engine of its own.
            owned = engine == nil ? ownEngine(options) : nil
            client = S3Client(engine: engine ?? owned!, endpoint: endpoint, credentials: credentials, bucket: parsed.bucket)
        } catch { throw .settings(error.description) }
        let folder = options.workFolder ?? defaultWorkFolder(for: parsed, environment: options.environment)
        let store = S3ObjectStore(client: client, location: parsed, spoolFolder: folder + "/" + spool, uploads: options.uploads)
        return StoreObjects(store: store, ownedEngine: owned, workFolder: folder)
    }

    /// The engine of a store that downloads no photos (a merge's).
    private static func ownEngine(_ options: GalleryStoreOptions) -> TransferEngine {
        var configuration = TransferConfiguration()
        configuration.maxConcurrentTransfers = options.uploads
        configuration.maxConcurrentPerHost = options.uploads
        configuration.caCertificatesPath = options.caCertificates
        // The bucket is the user's own: a merge streams shard parts of hundreds of MB from it, which
        // the 5-minute deadline for other people's photos would cut off.
        configuration.maxBodyBytes = .max
        configuration.deadline = 3600
        return TransferEngine(configuration: configuration)
    }
}
