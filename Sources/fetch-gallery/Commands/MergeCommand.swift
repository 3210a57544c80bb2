import ArgumentParser
import GalleryKit

/// `fetch-gallery merge OUT`: the gallery's index, pages and manifest from every shard's part.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Write a sharded gallery's index, photo pages and gallery.json from its shards' parts.",
        discussion: """
            Reads OUT/shards/K-of-N.photos.jsonl of every finished shard (one whose K-of-N.summary.json \
            exists), in listing order, writes each photo once, and downloads nothing. Shards that are \
            missing or unfinished are named and left out. Running it again gives the same files.

            Exit status: 0 every shard finished and every photo is in the gallery; 1 a shard is missing, \
            unfinished or could not read its source, or some photos failed (gallery.json says why); 2 usage \
            error or no shard part found.
            """
    )

    @Argument(help: "The gallery folder the shards wrote into, or their s3://BUCKET/PREFIX.")
    var out: String

    @Option(name: .customLong("shards"), help: "The job's shard count, to name shards that left no trace (default: read from the parts).")
    var count: Int?

    @OptionGroup var pageOptions: PageOptions

    @Option(help: ArgumentHelp("The --format the shards ran with (e.g. avif,jpeg): the pages then offer their AVIF and WebP thumbnails first.",
                               valueName: "formats"))
    var format = EncodingOptions.FormatList(formats: [.auto])

    @Flag(name: .shortAndLong, help: "Print errors only.")
    var quiet = false

    @OptionGroup var storage: StoreOptions
    @OptionGroup var certificates: CertificateOptions

    func validate() throws { try format.validate() }

    func run() async throws {
        // A folder merges in place. A store's parts are first fetched into its folder (from a bucket,
        // streamed, the keys under shards/ only), and the index, pages and manifest written there go to
        // it; what the earlier merge wrote and this one did not is deleted once index.html is up.
        let store = try storage.store(out: out, caCertificates: certificates.caCertificates)
        var merge = GalleryMerge(folder: store.folder, shards: count)
        merge.startedShards = try await store.fetchParts()
        merge.store = store
        merge.pageOptions = pageOptions.options
        merge.pageOptions.sourceFormats = format.extras.map { $0.resolved(hasAlpha: false) }
        let report = try merge.run()
        _ = try await store.finishMerge()
        store.close()
        func names(_ shards: [Int]) -> String {
            shards.map { "\($0)/\(report.shards)" }.joined(separator: ", ")
        }
        if !report.missing.isEmpty {
            StandardError.line("fetch-gallery merge: shards never started (no trace in \(out)): \(names(report.missing))")
        }
        if !report.unfinished.isEmpty {
            StandardError.line("fetch-gallery merge: shards unfinished (running, killed or interrupted; run them again): \(names(report.unfinished))")
        }
        for (shard, reason) in report.sourceErrors.sorted(by: { $0.key < $1.key }) {
            StandardError.line("fetch-gallery merge: shard \(shard)/\(report.shards) could not read its source: \(reason)")
        }
        if !quiet {
            StandardError.line("Gallery: \(out.hasSuffix("/") ? String(out.dropLast()) : out)/index.html (\(report.photosOK) photos, \(report.photosFailed) failed, "
                + (report.photosOptedOut > 0 ? "\(report.photosOptedOut) opted out, " : "")
                + "from \(report.shards - report.missing.count - report.unfinished.count) of \(report.shards) shards, "
                + "\(report.duplicates) duplicates left out)")
        }
        if let failure = report.failure { throw failure }
    }
}
