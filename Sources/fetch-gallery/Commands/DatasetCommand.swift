import ArgumentParser
import Foundation
import GalleryKit

/// `fetch-gallery dataset`: img2dataset's command line (dashes or underscores), img2dataset's output.
struct DatasetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Download a URL list into a training dataset (img2dataset's options and output).",
        discussion: """
            Takes img2dataset's options, with the same meanings and defaults (underscores or dashes, Fire's \
            --flag=False spelling too), and writes its layout: shards 00000.tar / 00000/ / 00000.parquet / \
            00000.tfrecord, each with 00000.parquet metadata (every input row, failures included) and \
            00000_stats.json written last. A shard with its _stats.json is done and skipped by the next run.
            Example: fetch-gallery dataset --url-list urls.csv --input-format csv --url-col url --caption-col text \
            --output-format webdataset --output-folder out --resize-mode keep_ratio
            Reshape a finished dataset without downloading again: fetch-gallery dataset --url-list out \
            --input-format webdataset --resize-mode no --number-sample-per-shard 1000 --where 'width>=256' \
            --output-folder out-1k (keys, captions and metadata carried over; bytes copied unless resized).
            Exit status: 0 done (rows that failed are in the metadata); 1 a shard could not be written; \
            2 usage error or a missing column; 3 the URL list could not be read; 130 interrupted (Ctrl-C), 143 \
            stopped by SIGTERM: each started shard keeps the rows that finished and the same command completes it.
            """)

    @Option(name: .customLong("url-list"), help: "A URL list file, or a folder of them (read in name order); or a finished dataset's folder, shard, or s3://BUCKET/PREFIX.") var urlList: String
    @Option(name: .customLong("input-format"), help: "txt, csv, tsv, json, jsonl, each also .gz, parquet; or webdataset, parquet-images, files: a finished dataset (ours or img2dataset's) made again from the images its shards hold, nothing downloaded.") var inputFormat = "txt"
    @Option(name: .customLong("url-col"), help: "The column holding the URL.") var urlCol = "url"
    @Option(name: .customLong("caption-col"), help: "The column holding the caption (saved as caption / .txt).") var captionCol: String?
    @Option(name: .customLong("save-additional-columns"), help: "Input columns to keep in the metadata: a,b.") var saveAdditionalColumns: String?
    @Option(name: .customLong("verify-hash"), help: ArgumentHelp("Check each download against a column: COL,ALGO (md5, sha256, sha512; ALGO must equal --compute-hash).", valueName: "COL,ALGO")) var verifyHash: String?
    @OptionGroup var verification: DatasetVerifyOptions
    @Option(name: .customLong("output-folder"), help: "The dataset folder, or s3://BUCKET/PREFIX (with --s3-endpoint for a store other than AWS).") var outputFolder = "images"
    @Option(name: .customLong("output-format"), help: "files, webdataset, parquet, tfrecord.") var outputFormat = "files"
    @Option(name: .customLong("image-size"), help: "The size images are resized to (WIDTHxHEIGHT with --resize-mode fixed).") var imageSize = "256"
    @Option(name: .customLong("resize-mode"), help: "no, border, keep_ratio, keep_ratio_largest, center_crop, fixed (exactly --image-size, e.g. 256x256).") var resizeMode = "border"
    @Flag(name: .customLong("resize-only-if-bigger"), inversion: .prefixedNo, help: "Never upscale.") var resizeOnlyIfBigger = false
    @Option(name: .customLong("min-image-size"), help: "Refuse images whose short side is smaller.") var minImageSize = 0
    @Option(name: .customLong("max-image-area"), help: "Refuse images with more pixels (default inf).") var maxImageArea = "inf"
    @Option(name: .customLong("max-aspect-ratio"), help: "Refuse images more elongated (long/short side, default inf).") var maxAspectRatio = "inf"
    @Option(name: .customLong("encode-format"), help: "jpg, png, webp, avif.") var encodeFormat = "jpg"
    @Option(name: .customLong("encode-quality"), help: "Quality (jpg/webp/avif), compression 0-9 for png.") var encodeQuality = 95
    @Flag(name: .customLong("skip-reencode"), inversion: .prefixedNo, help: "Keep the downloaded bytes when no resize is needed and the format matches.") var skipReencode = false
    @Option(name: .customLong("number-sample-per-shard"), help: "Rows per shard.") var numberSamplePerShard = 10_000
    @Option(name: .customLong("oom-shard-count"), help: "Digits of a shard name.") var oomShardCount = 5
    @Option(name: .customLong("compute-hash"), help: "sha256, md5, sha512 or none: the hash column of each download.") var computeHash = "sha256"
    @Flag(name: .customLong("extract-exif"), inversion: .prefixedNo, help: "Save the EXIF tags as a JSON string (on by default).") var extractExif = true
    @Option(name: .customLong("incremental-mode"), help: "incremental (skip finished shards), overwrite, extend.") var incrementalMode = "incremental"
    @Flag(name: .customLong("retry-failed"), help: "Fetch again only the rows of finished shards that failed to download, rewriting just those shards and keeping every other row as it is.") var retryFailed = false
    @Option(name: .customLong("disallowed-header-directives"), help: "X-Robots-Tag directives that refuse an image; [] for none.") var disallowedHeaderDirectives = "noai,noimageai,noindex,noimageindex,noml"
    @Option(name: .customLong("ignore-opt-out"), help: ArgumentHelp("AI opt-out signals not to honour, for a user with the right to (comma-separated): x-robots-tag, robots.txt, content-signal, content-usage, tdmrep, or all.", valueName: "signals")) var ignoreOptOut: String?
    @Option(name: .customLong("user-agent-token"), help: "Appended to the User-Agent; X-Robots-Tag rules for this token apply.") var userAgentToken: String?
    @Option(help: "Seconds to connect, and without a byte arriving, before a download fails.") var timeout: Double = 10
    @Option(help: "Extra attempts after a failed download.") var retries = 0
    @Option(name: .customLong("max-image-bytes"), help: "A larger download fails (default 64 MiB).") var maxImageBytes: Int64 = 64 << 20
    @Option(name: .customLong("min-speed"), help: ArgumentHelp("Bytes a second a download must beat over each --timeout window, or it fails as timed out (0: only a download that receives nothing fails).", valueName: "bytes")) var minSpeed = 1024
    @Option(name: .customLong("download-deadline"), help: ArgumentHelp("Seconds a download may take in all, retries included (default: 60, or 6 x --timeout when larger).", valueName: "seconds")) var downloadDeadline: Double?

    @Option(name: .customLong("processes-count"), help: .hidden) var processesCount: Int?
    @Option(name: .customLong("thread-count"), help: .hidden) var threadCount: Int?
    @Option(help: .hidden) var distributor: String?
    @Option(name: .customLong("subjob-size"), help: .hidden) var subjobSize: Int?
    @Option(name: .customLong("max-shard-retry"), help: .hidden) var maxShardRetry: Int?
    @Flag(name: .customLong("enable-wandb"), inversion: .prefixedNo, help: .hidden) var enableWandb = false
    @Option(name: .customLong("wandb-project"), help: .hidden) var wandbProject: String?
    @Option(name: .customLong("upscale-interpolation"), help: .hidden) var upscaleInterpolation = "lanczos"
    @Option(name: .customLong("downscale-interpolation"), help: .hidden) var downscaleInterpolation = "area"

    @Option(name: .customLong("bbox-col"),
            help: "Column of boxes [[x0,y0,x1,y1],...] (fractions of the image) to blur, as img2dataset does (DataComp's face_bboxes); kept in the metadata.")
    var bboxCol: String?

    @Option(help: "Downloads at once (replaces --thread-count).") var jobs = 64
    @Option(name: .customLong("per-host"), help: "Downloads at once per host.") var perHost = 16
    @Option(help: "Threads decoding and resizing (default: one per core; replaces --processes-count).") var workers = 0
    @OptionGroup var subset: SubsetOptions
    @OptionGroup var shard: ShardOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var storage: StoreOptions
    @OptionGroup var certificates: CertificateOptions
    @OptionGroup var dns: DNSOptions
    @Flag(name: .customLong("allow-private-addresses"), help: ArgumentHelp("""
        Also fetch from link-local addresses (169.254.0.0/16 with cloud metadata services, fe80::/10, \
        fd00:ec2::254), refused by default on every connection, after DNS and after every redirect. Loopback \
        and private addresses are always fetched.
        """))
    var allowPrivateAddresses = false

    func validate() throws {
        if upscaleInterpolation.lowercased() != "lanczos" || downscaleInterpolation.lowercased() != "area" {
            throw ValidationError("only --upscale-interpolation lanczos and --downscale-interpolation area are supported")
        }
    }

    func run() async throws {
        for (given, replacement) in [(processesCount != nil, "--processes-count: one process does all; --workers sets its resize threads, --shard K/N splits across machines"),
                                     (threadCount != nil, "--thread-count: --jobs sets the downloads at once"),
                                     (distributor != nil, "--distributor: run N processes with --shard K/N (or --shard-from-env on Slurm/Kubernetes)"),
                                     (subjobSize != nil || maxShardRetry != nil, "--subjob-size/--max-shard-retry: not needed; rerun to redo unfinished shards"),
                                     (enableWandb || wandbProject != nil, "--enable-wandb: not supported; progress is shown on stderr")] where given {
            StandardError.line("note: \(replacement)")
        }
        var options = try makeOptions()
        let alarm = ResolverAlarm()
        options.resolver = try await dns.resolver(alarm: alarm)
        options.allowsLinkLocal = allowPrivateAddresses
        let renderer = output.renderer
        let report = DatasetReport(renderer: renderer, quiet: output.quiet)
        let summary: DatasetSummary
        var activity: String?
        var interrupts: Interrupts?
        do {
            let run = try await DatasetRun.open(options: options, store: storage.options(caCertificates: certificates.caCertificates), observers: [report.aggregate])
            // The first SIGINT or SIGTERM stops the run through it: shards keep the rows that finished, the command
            // exits 130 or 143. A second one quits at once.
            // Weak: the run must end (its deinit removes the download spool) when this scope does, not when the
            // signal sources let go of their handler.
            let quiet = output.quiet
            interrupts = Interrupts { [weak run] signal in
                if !quiet { StandardError.line("\nStopping: keeping the rows that finished (Ctrl-C again quits at once).") }
                run?.requestStop(signal: signal)
            }
            alarm.arm { [weak run] in run?.requestStop() }
            let ticker = ProgressTicker.start { report.tick() }
            defer { ticker.cancel() }
            summary = try await run.run(observer: report)
            activity = run.storeActivity
        } catch {
            // A DatasetError: GalleryKit says how the run ends (usage 2, unreadable list 3, output 1);
            // main prints and exits.
            report.finish()
            throw error
        }
        withExtendedLifetime(interrupts) {}
        report.finish()
        if !output.quiet {
            StandardError.line("dataset: \(summary.rows) rows, \(summary.successes) success, \(summary.failedToDownload) failed_to_download, "
                + "\(summary.failedToResize) failed_to_resize"
                + (summary.optedOut > 0 ? ", \(summary.optedOut) opted_out" : "") + "; \(summary.shardsWritten) shard(s) written"
                + (summary.shardsAlreadyDone > 0 ? ", \(summary.shardsAlreadyDone) already done" : ""))
            if let breakdown = summary.failureBreakdown { StandardError.line("failures by class: \(breakdown)") }
            if let hint = summary.failureHint { StandardError.line("hint: \(hint)") }
            if let activity { StandardError.line("\(options.outputFolder): \(activity)") }
        }
        for failure in summary.failedShards { StandardError.line("error: shard \(failure)") }
        if let failure = alarm.failure ?? summary.failure { throw failure }
    }
}
