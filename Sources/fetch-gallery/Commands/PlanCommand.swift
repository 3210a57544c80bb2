import ArgumentParser
import Foundation
import GalleryKit

/// `fetch-gallery plan`: the listing read once into OUT/plan.jsonl (a folder, or s3://BUCKET/PREFIX),
/// for `run --from-plan` workers.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Read a source's listing once into OUT/plan.jsonl, for 'run --from-plan' (and its shards).",
        discussion: """
            Writes one selected photo per line (with its metadata and the image URL chosen), in listing \
            order, and downloads no photo. Then 'fetch-gallery run --out OUT --from-plan --shard K/N' \
            (or --shard-from-env) does the photos on lines i with i mod N = K, and 'fetch-gallery merge OUT' \
            joins the shards. For listings that cannot be split by page (cursor listings), and to read a \
            listing once instead of once per shard. Planning again over the same listing writes the same file.

            With --out s3://BUCKET/PREFIX the plan is made in the work folder (--work-dir) and then stored \
            whole as s3://BUCKET/PREFIX/plan.jsonl, where 'run --out s3://BUCKET/PREFIX --from-plan' on any \
            node reads it. The bucket is checked before the listing is read.

            Exit status: 0 the plan is written; 1 a listing page failed (the previous plan, if any, is kept); \
            2 usage error; 3 the source could not be read at all, or the bucket refused the keys or is \
            missing; 130 interrupted.
            """
    )

    @OptionGroup var sources: SourceOptions

    @Option(name: .shortAndLong, help: "The gallery folder the plan is written into (created if missing), or s3://BUCKET/PREFIX.")
    var out = "gallery"

    @OptionGroup var transfer: TransferOptions

    @OptionGroup var storage: StoreOptions

    @Flag(name: .shortAndLong, help: "Print errors only.")
    var quiet = false

    func validate() throws {
        guard sources.isService || (sources.api == nil) != (sources.urls == nil) else {
            throw ValidationError("give --source NAME, --api URL or --urls FILE")
        }
        if let source = sources.source, PhotoServices.entry(named: source)?.plannable == false {
            // Unsplash asks that every download be reported with the key; a plan's workers read no source.
            throw ValidationError("--source unsplash cannot be planned: Unsplash asks each download to be reported "
                + "to it with your key, which 'run --from-plan' workers do not hold; run it whole with 'fetch-gallery run --source unsplash'")
        }
    }

    func run() async throws {
        let listed: GalleryJob.Source?
        do {
            listed = try sources.listing()
        } catch let ending as any GalleryEnding { throw ending } catch {
            throw GalleryFailure(.usage, "\(error)")
        }
        guard let source = listed else { throw ValidationError("give --source NAME, --api URL or --urls FILE") }
        var job = GalleryJob(source: source, folder: out)
        sources.configure(&job, userAgent: transfer.userAgent)
        // The plan is made in the store's folder, after the store answered (a bucket, to the keys).
        let (engine, store) = try storage.engineAndStore(transfer.configuration(observers: []), out: out,
                                                         caCertificates: transfer.certificates.caCertificates)
        job.folder = store.folder
        try await store.check()
        let planner = GalleryRun(job: job, engine: engine)
        let interrupts = Interrupts { _ in planner.requestStop() }
        let summary = try await planner.plan()
        withExtendedLifetime(interrupts) {}
        if let failure = summary.planFailure(planLocation: store.planLocation) { throw failure }
        try await store.publishPlan()
        engine.shutdown()
        store.close()
        if !quiet {
            StandardError.line("Plan: \(store.planLocation) (\(summary.photosQueued) photos from \(summary.pagesFetched) pages); "
                + "next: fetch-gallery run --out \(out) --from-plan [--shard K/N]")
        }
    }
}
