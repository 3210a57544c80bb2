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

    func validate() throws { try format.validate() }

    func run() async throws {
        let report: MergeReport
        var merge = GalleryMerge(folder: out, shards: count)
        // s3://: the parts are streamed into the work folder (the keys under shards/ only), and the
        // index, pages and manifest written there go to the bucket; what the earlier merge wrote and
        // this one did not is deleted once index.html is up (its key list is kept under shards/).
        let store = try storage.store(out: out, command: "fetch-gallery merge", caCertificates: nil)
        if let store {
            do throws(S3Error) {
                merge.startedShards = try await store.fetchParts()
            } catch {
                StandardError.line("fetch-gallery merge: \(error)")
                throw ExitCode(3)
            }
            merge.folder = store.folder
            merge.store = store
        }
        merge.pageOptions = pageOptions.options
        merge.pageOptions.sourceFormats = format.extras.map { $0.resolved(hasAlpha: false) }
        switch Self.merge(merge) {
        case .success(let merged): report = merged
        case .failure(let error):
            switch error {
            case .noParts, .badCount, .mixedCounts: throw ValidationError(error.description)
            default:
                StandardError.line("fetch-gallery merge: \(error)")
                throw ExitCode(1)
            }
        }
        if let store {
            do throws(GalleryError) { try await store.finishMerge() } catch {
                StandardError.line("fetch-gallery merge: \(error)")
                throw ExitCode(1)
            }
            store.client.engine.shutdown()
        }
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
                + "from \(report.shards - report.missing.count - report.unfinished.count) of \(report.shards) shards, "
                + "\(report.duplicates) duplicates left out)")
        }
        if !report.isComplete || report.photosFailed > 0 { throw ExitCode(1) }
    }

    private static func merge(_ merge: GalleryMerge) -> Result<MergeReport, ShardError> {
        do throws(ShardError) { return .success(try merge.run()) } catch { return .failure(error) }
    }
}
