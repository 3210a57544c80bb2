import ArgumentParser
import Foundation
import GalleryKit

/// The options of a store `--out` names besides a folder (today `s3://BUCKET/PREFIX`): the service,
/// the local work folder, the uploads. GalleryKit opens the store from them (``GalleryStores``).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("s3-endpoint"), help: ArgumentHelp(
        "With an s3://BUCKET/PREFIX location (--out; dataset's --output-folder or --url-list): the URL of an S3-compatible service (Ceph, MinIO, R2); AWS S3 when not given.",
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

    /// The settings of the store `--out` names (GalleryKit opens it; a folder needs none of them).
    func options(caCertificates: String?) -> GalleryStoreOptions {
        var options = GalleryStoreOptions()
        options.endpoint = s3Endpoint
        options.region = s3Region
        options.addressing = s3Addressing
        options.uploads = s3Uploads
        options.workFolder = workDir
        // Zero (refused by validate()) for a number that is not a positive one.
        options.checkpointInterval = journalUploadInterval.isFinite && journalUploadInterval > 0
            ? .milliseconds(Int64(min(journalUploadInterval, 1e12) * 1000)) : .zero
        options.caCertificates = caCertificates
        return options
    }

    func validate() throws {
        // Every kind of store says what it cannot use, whichever --out is given.
        let settings = options(caCertificates: nil)
        for kind in GalleryStores.kinds {
            if let problem = kind.problem(with: settings) { throw ValidationError(problem) }
        }
    }

    /// The engine of a command that downloads, from `configuration` (the store's host given limits of
    /// its own there), and the store `out` names on it.
    func engineAndStore(_ configuration: TransferConfiguration, out: String,
                        caCertificates: String?) throws(GalleryStoreError) -> (TransferEngine, any GalleryStore) {
        let options = options(caCertificates: caCertificates)
        var configuration = configuration
        GalleryStores.limitHost(of: out, options: options, in: &configuration)
        let engine = TransferEngine(configuration: configuration)
        return (engine, try GalleryStores.open(out, options: options, engine: engine))
    }

    /// The store `out` names, on connections of its own (a command that downloads nothing: merge).
    func store(out: String, caCertificates: String?) throws(GalleryStoreError) -> any GalleryStore {
        try GalleryStores.open(out, options: options(caCertificates: caCertificates))
    }
}
