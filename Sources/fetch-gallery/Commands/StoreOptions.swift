import ArgumentParser
import Foundation
import GalleryKit

/// Where `--out s3://BUCKET/PREFIX` goes: the service, the local work folder, the uploads.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("s3-endpoint"), help: ArgumentHelp(
        "With --out s3://BUCKET/PREFIX: the URL of an S3-compatible service (Ceph, MinIO, R2); AWS S3 when not given.",
        valueName: "url"))
    var s3Endpoint: String?

    @Option(name: .customLong("s3-region"), help: ArgumentHelp(
        "The region requests are signed for (default: AWS_REGION, AWS_DEFAULT_REGION, else us-east-1).", valueName: "name"))
    var s3Region: String?

    @Option(name: .customLong("s3-addressing"), help: ArgumentHelp(
        "path (https://HOST/BUCKET/KEY, the default with --s3-endpoint) or virtual (https://BUCKET.HOST/KEY, the default for AWS).",
        valueName: "style"))
    var s3Addressing: String?

    @Option(name: .customLong("s3-uploads"), help: "With --out s3://: uploads at once.")
    var s3Uploads = 32

    @Option(name: .customLong("work-dir"), help: ArgumentHelp(
        "With --out s3://: the local folder for the journal, the pages and the downloads in progress "
        + "(default: under $XDG_CACHE_HOME or ~/.cache/fetch-gallery).", valueName: "dir"))
    var workDir: String?

    @Option(name: .customLong("journal-upload-interval"), help: ArgumentHelp(
        "With --out s3://: seconds between uploads of the journal to the store, so a run elsewhere resumes from it.",
        valueName: "seconds"))
    var journalUploadInterval: Double = 180

    func validate() throws {
        guard s3Uploads >= 1 else { throw ValidationError("--s3-uploads must be at least 1") }
        guard journalUploadInterval > 0, journalUploadInterval.isFinite else {
            throw ValidationError("--journal-upload-interval must be a positive number of seconds")
        }
        if let s3Addressing, S3Endpoint.Addressing(rawValue: s3Addressing) == nil {
            throw ValidationError("--s3-addressing is path or virtual")
        }
    }

    /// Whether `out` names an object store rather than a folder.
    static func isStore(_ out: String) -> Bool { out.hasPrefix("s3://") }

    /// Gives the store of `out` its own limits on the engine that downloads the photos: `--s3-uploads`
    /// at once, outside the downloads' total (`--jobs`), no `--rate`, not counted in the download progress.
    /// The downloads' per-host cap and rate are for other people's servers; the uploads neither wait
    /// behind the downloads nor make them wait. Nothing for a folder (or a location `store` refuses).
    private func limitStoreHost(_ configuration: inout TransferConfiguration, out: String) {
        guard Self.isStore(out), let location = try? S3Location(parsing: out), let endpoint = try? endpoint() else { return }
        let host = TransferConfiguration.hostKey(of: endpoint.url(bucket: location.bucket))
        configuration.hostLimits[host] = HostLimit(maxConcurrent: s3Uploads)
    }

    /// The engine of a command that downloads, from `configuration` (the store's host given its own
    /// limits there, see ``limitStoreHost(_:out:)``), and the store of `out` on it (nil for a folder).
    func engineAndStore(_ configuration: TransferConfiguration, out: String, command: String,
                        caCertificates: String?) throws -> (TransferEngine, S3GalleryStore?) {
        var configuration = configuration
        limitStoreHost(&configuration, out: out)
        let engine = TransferEngine(configuration: configuration)
        return (engine, try store(out: out, command: command, caCertificates: caCertificates, engine: engine))
    }

    private func endpoint() throws(S3Error) -> S3Endpoint {
        try S3Endpoint(url: s3Endpoint, region: s3Region, addressing: s3Addressing.flatMap(S3Endpoint.Addressing.init(rawValue:)))
    }

    /// The store for `out` (nil for a folder), its keys from the environment or `~/.aws/credentials`, its
    /// requests on `engine` (see ``engineAndStore(_:out:command:caCertificates:)``), or on an engine of its own for a command
    /// that downloads nothing. A bad location, endpoint or missing keys print a line and exit 2.
    func store(out: String, command: String, caCertificates: String?, engine: TransferEngine? = nil) throws -> S3GalleryStore? {
        guard Self.isStore(out) else { return nil }
        let client: S3Client, location: S3Location
        do throws(S3Error) {
            location = try S3Location(parsing: out)
            let endpoint = try endpoint()
            let credentials = try S3Credentials.resolve()
            // Given the run's engine, the store's host has its own cap there (a HostLimit) and no rate
            // limit; otherwise (merge) an engine of its own.
            let engine = engine ?? {
                var configuration = TransferConfiguration()
                configuration.maxConcurrentTransfers = s3Uploads
                configuration.maxConcurrentPerHost = s3Uploads
                configuration.caCertificatesPath = caCertificates
                // The bucket is the user's own: a merge streams shard parts of hundreds of MB from it, which
                // the 5-minute deadline for other people's photos would cut off.
                configuration.maxBodyBytes = .max
                configuration.deadline = 3600
                return TransferEngine(configuration: configuration)
            }()
            client = S3Client(engine: engine, endpoint: endpoint, credentials: credentials, bucket: location.bucket)
        } catch {
            StandardError.line("\(command): \(error)")
            throw ExitCode(2)
        }
        let folder = workDir ?? S3GalleryStore.defaultWorkFolder(for: location)
        do throws(GalleryError) {
            return try S3GalleryStore(client: client, location: location, workFolder: folder, inFlight: s3Uploads,
                                      checkpointInterval: .milliseconds(Int64(journalUploadInterval * 1000)))
        } catch {
            StandardError.line("\(command): cannot use the work folder \(folder): \(error)")
            throw ExitCode(2)
        }
    }

    /// Checks the bucket and fetches what a resumed run needs, before any photo is downloaded: wrong
    /// keys, a missing bucket or a store that does not answer print a line and exit 3.
    static func prepare(_ store: S3GalleryStore, journal: String, command: String) async throws {
        try await exitingOnFailure(command) { () throws(S3Error) in try await store.prepare(journal: journal) }
    }

    /// Checks the bucket alone (a command that resumes nothing from the store): as ``prepare(_:journal:command:)``.
    static func checkBucket(_ store: S3GalleryStore, command: String) async throws {
        try await exitingOnFailure(command) { () throws(S3Error) in try await store.client.checkBucket() }
    }

    private static func exitingOnFailure(_ command: String, _ body: () async throws(S3Error) -> Void) async throws {
        do throws(S3Error) { try await body() } catch {
            StandardError.line("\(command): \(error)")
            throw ExitCode(3)
        }
    }
}
