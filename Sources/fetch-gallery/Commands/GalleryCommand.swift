import ArgumentParser
import Foundation
import GalleryDemo
import GalleryKit

/// `fetch-gallery [run] --pages 5 --out gallery`: the main job. Photo pages (or a URL list) in, a
/// gallery folder out; with neither `--api` nor `--urls`, the built-in demo catalogue is served
/// on 127.0.0.1 and used, so the command works offline.
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Build a gallery folder from photo pages (the default command).",
        discussion: """
            Reads listing pages of a 500px-style API (GET /photos?feature=popular&page=N&rpp=50), downloads \
            every photo concurrently (resuming partial downloads), makes thumbnails, and writes OUT/index.html, \
            a page per photo, OUT/gallery.json (every photo's metadata and status), the originals in \
            OUT/photos/ and the thumbnails in OUT/thumbs/. Running the same command again only does what is \
            missing. With no --api and no --urls, a built-in demo catalogue of real photographs is served \
            on 127.0.0.1 and used. With --source, a photo service is read instead: commons (--category), \
            openverse (--query), unsplash, pexels or flickr (a key in UNSPLASH_ACCESS_KEY, PEXELS_API_KEY or \
            FLICKR_API_KEY); each photo's author, licence and page are recorded and credited.

            Ctrl-C (or SIGTERM) once: stop starting new work, keep partial downloads, write the gallery for what is done. \
            Twice: quit at once.

            Exit status: 0 all done; 1 some photos or pages failed; 2 usage error; 3 the source could not \
            be read at all; 130 interrupted (Ctrl-C), 143 stopped by SIGTERM.
            """
    )

    @OptionGroup var sources: SourceOptions

    @Option(name: .shortAndLong, help: "The gallery folder (created if missing; re-runs are incremental), or s3://BUCKET/PREFIX.")
    var out = "gallery"

    @Option(help: "Longest edge of the thumbnails, in pixels.")
    var size = 256

    @Option(help: ArgumentHelp("Several thumbnail sizes, e.g. 256,512 for high-density screens (overrides --size).",
                               valueName: "list"))
    var sizes: String?

    @Flag(name: .customLong("from-plan"),
          help: "Fetch the photos of OUT/plan.jsonl (made by 'fetch-gallery plan'; with --out s3://, fetched from the bucket); with --shard, its lines i with i mod N = K.")
    var fromPlan = false

    @Option(name: .customLong("demo-synthetic"),
            help: ArgumentHelp("With no --api: serve the built-in demo as a synthetic catalogue of N small photos (see serve-demo --synthetic).", valueName: "N"))
    var demoSynthetic: Int?

    @Flag(help: "Fetch each photo's comments for its page.")
    var comments = false

    @Option(help: "Threads decoding and scaling (default: the cores).")
    var workers = System.coreCount

    @Option(name: .customLong("max-pixels"), help: "Refuse images with more pixels (a decompression-bomb guard).")
    var maxPixels = 100_000_000

    @OptionGroup var encoding: EncodingOptions

    @OptionGroup var transfer: TransferOptions

    @OptionGroup var storage: StoreOptions

    @Flag(name: .customLong("allow-private-addresses"),
          help: ArgumentHelp("""
              Fetch image URLs from any address. By default an image listed by the API is fetched only from an \
              address no more private than the API host's (a public API cannot reach loopback, private or \
              link-local addresses), a --urls entry may not redirect to a more private address than its host's, and \
              no URL reaches a link-local address (169.254.0.0/16 with cloud metadata services, fe80::/10).
              """))
    var allowPrivateAddresses = false

    @OptionGroup var dns: DNSOptions
    @Flag(name: .customLong("respect-opt-out"), help: ArgumentHelp("""
              Skip photos whose site opts them out of AI use, before their body is read (robots.txt and its \
              Content-Signal, X-Robots-Tag, TDMRep, Content-Usage: what 'dataset' honours by default). \
              gallery.json records each as opted_out with its signal; they are not failures.
              """))
    var respectOptOut = false

    @OptionGroup var shards: ShardOptions

    @OptionGroup var pageOptions: PageOptions

    @OptionGroup var output: OutputOptions

    func thumbnailSizes() throws -> [Int] {
        guard let sizes else { return [size] }
        let parsed = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw ValidationError("--sizes takes positive numbers separated by commas, e.g. 256,512")
        }
        return Array(Set(parsed.compactMap { $0 })).sorted()
    }

    func validate() throws {
        let (api, urls) = (sources.api, sources.urls)
        if fromPlan, api != nil || urls != nil || demoSynthetic != nil {
            throw ValidationError("--from-plan reads OUT/plan.jsonl: drop --api/--urls/--demo-synthetic")
        }
        if let demoSynthetic {
            guard api == nil, urls == nil else { throw ValidationError("--demo-synthetic is for the built-in demo: drop --api/--urls") }
            guard (1...10_000_000).contains(demoSynthetic) else { throw ValidationError("--demo-synthetic must be 1...10000000") }
        }
        guard size >= 1, workers >= 1, maxPixels >= 1 else {
            throw ValidationError("--size, --workers and --max-pixels must be positive")
        }
        _ = try thumbnailSizes()
        try shards.validate()
        if sources.isService, shards.shard != nil || shards.fromEnvironment {
            throw ValidationError("--shard works with a 500px-style --api and with --urls; --source \(sources.source!) lists by its own cursor: read it once with 'fetch-gallery plan --source \(sources.source!) ... --out OUT', then run the shards with 'fetch-gallery run --out OUT --from-plan --shard K/N'")
        }
        if sources.source == "500px", api == nil { throw ValidationError("--source 500px needs --api URL") }
    }

    func run() async throws {
        let quiet = output.quiet
        let shard = try shards.resolve(environment: ProcessInfo.processInfo.environment)
        let (source, demo) = try await listing(quiet: quiet)
        var job = try makeJob(source: source, shard: shard)
        let aggregate = AggregateProgress()
        var configuration = transfer.configuration(observers: [aggregate])
        let alarm = ResolverAlarm()
        configuration.resolver = try await dns.resolver(alarm: alarm)
        configuration.allowsLinkLocal = allowPrivateAddresses
        // A service's image hosts get its API's agent, and no more downloads at once than it asks for.
        if sources.isService, let service = sources.source {
            PhotoServices.configure(&configuration, for: service, userAgent: job.userAgent)
        }
        // The store --out names (a folder, or a bucket whose uploads run on the same engine with limits
        // of their own): the gallery is made in its folder, and the store is checked, and what a resumed
        // run needs fetched, before any photo is downloaded.
        let (engine, store) = try storage.engineAndStore(configuration, out: out, caCertificates: transfer.certificates.caCertificates)
        job.folder = store.folder
        try await store.prepare(journal: shard.map { ShardLayout(folder: store.folder, shard: $0).journalPath } ?? GalleryNaming.journalPath)
        if fromPlan { job.source = try await store.planSource() }
        let report = GalleryReport(renderer: output.renderer, aggregate: aggregate, pageLimit: sources.pages)
        let gallery = GalleryRun(job: job, engine: engine, observers: [report], store: store)
        let interrupts = Interrupts { signal in
            if !quiet { StandardError.line("\nStopping: writing the gallery for what is done (Ctrl-C again quits at once).") }
            gallery.requestStop(signal: signal)
        }
        alarm.arm { gallery.requestStop() }

        let ticker = ProgressTicker.start { report.tick() }
        let summary: GalleryRunSummary
        do {
            summary = try await gallery.run()
        } catch {
            ticker.cancel()
            report.finish(quiet: quiet)
            throw error
        }
        ticker.cancel()
        report.finish(quiet: quiet)
        engine.shutdown()
        store.close()
        if !quiet, let activity = store.activity { StandardError.line("Store: \(store.location) (\(activity))") }
        if let demo { await demo.stop() }
        withExtendedLifetime(interrupts) {}

        if !quiet { announce(summary, shard: shard) }
        if let failure = alarm.failure ?? summary.runFailure { throw failure }
    }

    /// What the run reads: the plan (read from the store once it is open), the listing the options name, or
    /// the built-in demo catalogue, started here (stopped by the caller).
    private func listing(quiet: Bool) async throws -> (GalleryJob.Source, DemoServer?) {
        // The plan is the store's: read once the store is open and checked.
        if fromPlan { return (.plan(path: "", source: ""), nil) }
        if let listed = try sources.listing() { return (listed, nil) }
        var configuration = DemoServerConfiguration()
        configuration.syntheticPhotos = demoSynthetic
        let demo: DemoServer
        do { demo = try await DemoServer.start(configuration) } catch {
            throw GalleryFailure(.unreadable, "cannot start the demo catalogue: \(error)")
        }
        if !quiet {
            StandardError.line("No --api given: using the built-in demo catalogue at \(demo.baseURL) (real photographs, served on 127.0.0.1).")
        }
        return (.api(base: URL(string: demo.baseURL)!, consumerKey: nil), demo)
    }

    /// The job the options describe, reading `source` into `--out` (its folder set again once the store is open).
    private func makeJob(source: GalleryJob.Source, shard: ShardSpec?) throws -> GalleryJob {
        var job = GalleryJob(source: source, folder: out)
        job.thumbnailSizes = try thumbnailSizes()
        job.comments = comments
        job.workers = workers
        job.decodeOptions = DecodeOptions(maxPixels: maxPixels)
        job.jpegQuality = encoding.quality
        job.thumbnailFormat = encoding.format.primary
        job.extraThumbnailFormats = encoding.format.extras
        job.webpQuality = encoding.webpQuality
        job.avifQuality = encoding.avifQuality
        job.avifSpeed = encoding.avifSpeed
        job.allowPrivateAddresses = allowPrivateAddresses
        job.optOut = respectOptOut ? OptOutPolicy(tokens: ["fetch-gallery"]) : nil
        job.shard = shard
        sources.configure(&job, userAgent: transfer.userAgent)
        job.pageOptions = pageOptions.options
        return job
    }

    /// The run's last line: where the gallery (or the shard's part) is and what it holds.
    private func announce(_ summary: GalleryRunSummary, shard: ShardSpec?) {
        let optedOut = summary.photosOptedOut > 0 ? "\(summary.photosOptedOut) opted out, " : ""
        if let shard {
            StandardError.line("Shard \(shard) of \(out): \(summary.photosOK) photos, \(summary.photosFailed) failed, \(optedOut)"
                + "\(summary.bytesDownloaded) bytes downloaded; 'fetch-gallery merge \(out)' writes the gallery once every shard is done")
        } else {
            StandardError.line("Gallery: \(out.hasSuffix("/") ? String(out.dropLast()) : out)/index.html (\(summary.photosOK) photos, \(summary.photosFailed) failed, \(optedOut)"
                + "\(summary.thumbnailsMade) thumbnails made, \(summary.bytesDownloaded) bytes downloaded)")
        }
    }
}
