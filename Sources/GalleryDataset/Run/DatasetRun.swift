import DatasetFormats
import Foundation
import GalleryImaging
import GalleryRunner
import GallerySync
import GalleryTransfer
import Synchronization

/// Hears how a dataset run goes, for a progress display. Called from any thread; keep it quick.
public protocol DatasetRunObserver: Sendable {
    /// A shard's rows are read and its work starts.
    func shardStarted(name: String, rows: Int)
    /// A row is done (`failed`: not a success).
    func rowFinished(failed: Bool)
    /// A shard's files and stats are written.
    func shardFinished(name: String, count: Int, successes: Int)
    /// A shard was left alone: done by an earlier run, or another `--shard`'s.
    func shardSkipped(name: String, rows: Int, done: Bool)
    /// Said once while the run goes on: one class of failure is most of them, and what to do about it.
    func warning(_ text: String)
}

extension DatasetRunObserver {
    public func warning(_ text: String) {}
}

/// What a run did.
public struct DatasetSummary: Sendable, Equatable {
    /// The rows: taken on (``BatchTally/items``), written, failed, opted out; and the stop.
    public var tally = BatchTally()
    /// Rows taken on.
    public var rows: Int { get { tally.items } set { tally.items = newValue } }
    /// Rows written with status `success`.
    public var successes: Int { get { tally.succeeded } set { tally.succeeded = newValue } }
    /// Rows whose download failed (in ``BatchTally/failed``).
    public var failedToDownload = 0
    /// Rows downloaded but not an image, or filtered out by size (in ``BatchTally/failed``).
    public var failedToResize = 0
    /// Rows a site's AI opt-out signal kept out (status `opted_out`).
    public var optedOut: Int { get { tally.optedOut } set { tally.optedOut = newValue } }
    public var shardsWritten = 0
    /// Shards an earlier run finished (their `_stats.json` exists).
    public var shardsAlreadyDone = 0
    /// Shards that could not be written, with the reason (the run goes on with the others).
    public var failedShards: [String] = []
    /// Shards a stop closed with the rows that had finished (`NNNNN_partial.json`): the next run fetches the rest.
    public var partialShards = 0
    /// Shards a stop left unfinished in a format or place whose shards are not read back: the next run redoes them.
    public var unfinishedShards = 0
    /// The signal that stopped the run (``BatchRunner/stopWithoutSignal`` for a stop by code); nil when it ran to its end.
    public var stopSignal: Int32? { get { tally.stopSignal } set { tally.stopSignal = newValue } }
    /// The rows that did not succeed, by why (``FailureClass``).
    public var failuresByClass: [FailureClass: Int] = [:]
}

/// `fetch-gallery dataset`: the URL list cut into shards, each row downloaded through the project's engine,
/// checked and resized with its codecs, and each shard written by `DatasetShardWriter` in img2dataset's layout.
public final class DatasetRun: Sendable {
    public let options: DatasetOptions
    let sink: any DatasetStoreSink
    let engine: TransferEngine
    /// The batch runner the shards and rows run through: its pool, its stop.
    let runner: BatchRunner
    var pool: WorkerPool { runner.pool }
    let fetcher: RowFetcher
    let processor: DatasetImageProcessor
    /// Where bodies over ``DatasetOptions/bodyMemoryLimit`` wait for a worker (nil: every body in memory).
    let spool: RowSpool?
    /// Whether the dominant failure class was warned of (once a run).
    let warnedOfFailures = Atomic<Bool>(false)
    /// The trainers' indexes, made on first use (see DatasetRun+Indexes).
    let indexes = Locked<ShardIndexes?>(nil)
    /// Hosts' placeholder images (nil: detection off).
    let placeholders: PlaceholderDetector?
    /// The finished dataset read back from a store (nil: the input is local).
    let stored: StoredDataset?

    /// A run writing into `sink`; `observers` hear the engine's transfers (bytes, for progress).
    public convenience init(options: DatasetOptions, sink: any DatasetStoreSink, observers: [any TransferObserver] = []) throws(DatasetError) {
        try self.init(options: options, observers: observers) { _ throws(DatasetError) in sink }
    }

    /// A run writing where ``DatasetOptions/outputFolder`` says: a folder, or a store (`s3://BUCKET/PREFIX`)
    /// opened with `store`, its uploads on the run's engine with limits of their own.
    public convenience init(options: DatasetOptions, store: GalleryStoreOptions,
                            observers: [any TransferObserver] = []) throws(DatasetError) {
        try self.init(options: options, observers: observers, store: store) { engine throws(DatasetError) in
            do throws(GalleryStoreError) { return try GalleryStores.openDatasetSink(options.outputFolder, options: store, engine: engine) } catch {
                throw .store(error)
            }
        }
    }

    /// A run writing where ``DatasetOptions/outputFolder`` says, as ``init(options:store:observers:)``, whose
    /// `--url-list` may also name a finished dataset in a store (`s3://BUCKET/PREFIX` with `--input-format
    /// webdataset|parquet-images|files`), opened with the same `store` options: listed, and its first shard
    /// read, before anything is written.
    public static func open(options: DatasetOptions, store: GalleryStoreOptions,
                            observers: [any TransferObserver] = []) async throws(DatasetError) -> DatasetRun {
        guard options.inputFormat.kind.isDataset, GalleryStores.isRemote(options.urlList) else {
            return try DatasetRun(options: options, store: store, observers: observers)
        }
        let stored = try await StoredDataset.open(options.urlList, format: options.inputFormat, options: store)
        return try DatasetRun(options: options, observers: observers, store: store, stored: stored) { engine throws(DatasetError) in
            do throws(GalleryStoreError) { return try GalleryStores.openDatasetSink(options.outputFolder, options: store, engine: engine) } catch {
                throw .store(error)
            }
        }
    }

    init(options: DatasetOptions, observers: [any TransferObserver], store: GalleryStoreOptions? = nil, stored: StoredDataset? = nil,
         sink makeSink: (TransferEngine) throws(DatasetError) -> any DatasetStoreSink) throws(DatasetError) {
        let options = try ReshapeInput.resolve(options, stored: stored)
        try options.validate()
        self.options = options
        self.stored = stored
        var configuration = Self.transferConfiguration(options, observers: observers)
        if let store { GalleryStores.limitHost(of: options.outputFolder, options: store, in: &configuration) }
        let engine = TransferEngine(configuration: configuration)
        self.engine = engine
        do { sink = try makeSink(engine) } catch {
            engine.shutdown()
            throw error
        }
        if let limit = options.bodyMemoryLimit {
            do { spool = try RowSpool(base: sink.scratchFolder, memoryLimit: limit) } catch {
                engine.shutdown()
                throw error
            }
        } else {
            spool = nil
        }
        runner = BatchRunner(threads: options.workers > 0 ? options.workers : ProcessInfo.processInfo.activeProcessorCount)
        fetcher = RowFetcher(engine: engine, userAgent: RowFetcher.userAgent(token: options.userAgentToken),
                             optOut: options.optOut.map { OptOutGate(policy: $0, engine: engine) })
        processor = DatasetImageProcessor(options: options.image)
        placeholders = options.verification.placeholders.map(PlaceholderDetector.init(policy:))
    }

    /// The output folder on this machine (nil for a store): where earlier runs' shards are read back from.
    var localFolder: String? { sink.localFolder }

    /// Whether a stop closes a started shard with the rows that finished, for the next run to complete: a local
    /// folder in a format whose shards are read back (webdataset, files); otherwise the shard is redone whole.
    var resumesPartialShards: Bool {
        localFolder != nil && [.webdataset, .files].contains(options.outputFormat)
    }

    /// What the store did, for the command's last line (nil for a folder).
    public var storeActivity: String? { sink.activity }

    deinit {
        sink.close()
        engine.shutdown()
        spool?.close()
    }

    /// img2dataset's socket timeout as the engine's limits, and what ends a straggler: `--timeout` to connect; a
    /// download that receives fewer than `--min-speed` bytes a second over a `--timeout` window fails (at least
    /// one byte: nothing arriving always fails); `--download-deadline` bounds a download in all, retries
    /// included (a body that shows it cannot finish by then ends when that shows); `--max-image-bytes` bounds a body; `--retries` extra attempts for what is worth retrying.
    static func transferConfiguration(_ options: DatasetOptions, observers: [any TransferObserver]) -> TransferConfiguration {
        var config = TransferConfiguration()
        config.maxConcurrentTransfers = options.jobs
        config.maxConcurrentPerHost = options.perHost
        config.connectTimeout = options.timeout
        config.lowSpeedLimit = max(1, options.minBytesPerSecond)
        config.lowSpeedWindow = max(1, Int(options.timeout.rounded(.up)))
        config.deadline = options.effectiveDeadline
        config.endsBodiesThatCannotFinish = true
        config.retry.maxAttempts = options.retries + 1
        config.requestsPerSecondPerHost = nil
        config.maxBodyBytes = options.maxImageBytes
        config.caCertificatesPath = options.caCertificates
        config.resolver = options.resolver
        config.allowsLinkLocal = options.allowsLinkLocal
        config.observers = observers
        return config
    }

    /// Runs every shard this process is to do. Rows fail one by one in the metadata; what stops the run is an
    /// unreadable input or a missing column (after the shards already started are finished and written).
    public func run(observer: (any DatasetRunObserver)? = nil) async throws(DatasetError) -> DatasetSummary {
        let files: [String]
        if let stored { files = stored.shards.map(\.location) } else { files = try options.inputFormat.inputFiles(at: options.urlList) }
        do throws(GalleryStoreError) { try await sink.prepare() } catch { throw .store(error) }
        let (done, firstShard) = try prepareOutput()
        await adoptStoredIndex()
        try loadPlaceholders()
        // --retry-failed reads the shards it rewrites back from the folder.
        if options.retryFailed {
            guard localFolder != nil else { throw .invalidOption("--retry-failed needs a local --output-folder (not a store)") }
            guard options.incrementalMode == .incremental else { throw .invalidOption("--retry-failed works with --incremental-mode incremental") }
        }
        let reader = makeReader(files: files, firstShard: firstShard, done: done, observer: observer)
        guard let first = try await reader.next() else { return DatasetSummary() }
        let schema = inferredSchema(keptNames: reader.keptNames, first: first.rows)
        // Shards another --shard writes, or an earlier run finished, are counted, not read.
        let sharding = options.shard
        let retries = options.retryFailed
        reader.readsRows = { id in (retries || !done.contains(id)) && sharding.map { id % $0.count == $0.index } ?? true }
        let summary = Locked(DatasetSummary())
        let shards = ShardQueue(run: self, reader: reader, first: first, done: done, schema: schema,
                                summary: summary, observer: observer)
        // The runner's one task: shards (and in each, rows) on the pool; a stop cancels it, and each started shard
        // records the rows that finished.
        let stop: DatasetError? = await runner.run {
            do throws(DatasetError) {
                try await self.runner.forEach(window: self.options.shardsInFlight, next: { () async throws(DatasetError) in try await shards.next() },
                                              releasingEarly: { work, started in
                    await self.runShard(work, schema: schema, summary: summary, observer: observer, started: started)
                })
            } catch {
                return error
            }
            return nil
        }
        await finishOutput(summary)
        if let stop { throw stop }
        return summary.withLock { s in
            s.stopSignal = runner.stopSignal
            return s
        }
    }

    /// The reader of the input, cut into shards from `firstShard` on; a dataset in a store is copied shard by
    /// shard as it is read, and counted where this process passes shards over (another `--shard`'s, or those
    /// `done`).
    private func makeReader(files: [String], firstShard: Int, done: Set<Int>,
                            observer: (any DatasetRunObserver)?) -> ShardReader {
        let reader = ShardReader(files: files, format: options.inputFormat, columns: options.columns,
                                 perShard: options.numberSamplePerShard, firstShard: firstShard)
        reader.subset = options.subset.isEmpty ? nil : options.subset
        if let stored {
            reader.opener = { location, ahead async throws(DatasetError) in try await stored.reader(location, copyAhead: ahead) }
            // Only a run that passes shards over (another --shard's, or those an earlier run finished) asks for counts.
            if options.shard != nil || !done.isEmpty {
                let runner = runner
                reader.sampleCount = { location in await stored.sampleCount(location, runner: runner) }
            }
            if !stored.unfinished.isEmpty {
                observer?.warning("\(stored.location): \(stored.unfinished.count) shard(s) without their _stats.json passed over (unfinished): "
                    + stored.unfinished.prefix(5).joined(separator: ", ") + (stored.unfinished.count > 5 ? ", ..." : ""))
            }
        }
        return reader
    }

    /// The metadata's schema: the kept columns' types inferred from the first shard's rows (every process of a
    /// `--shard K/N` run reads the same first shard, so all infer the same types).
    private func inferredSchema(keptNames: [String], first rows: [DatasetRow]) -> DatasetSchema {
        let types = keptNames.indices.map { i in
            ["url", "caption", options.columns.verifyHash?.algorithm, options.columns.verifyPHash.map { _ in DatasetVerification.phashColumn }]
                .contains(keptNames[i])
                ? DatasetColumnType.string : DatasetColumnType.infer(rows.map { $0.values[i] })
        }
        return DatasetSchema(keptNames: keptNames, keptTypes: types, extractExif: options.extractExif,
                             hash: options.computeHash, phash: options.recordsPHash, verifiedBy: options.recordsVerifiedBy)
    }

    /// After the shards: a store's uploads finish (a shard whose file could not be stored has no stats there), the
    /// placeholders and the trainers' indexes are saved, and a store's indexes go up after its shards (the shards'
    /// own `.idx` with them). What fails is counted among `summary`'s failed shards.
    private func finishOutput(_ summary: Locked<DatasetSummary>) async {
        let failures = await sink.finish()
        summary.withLock { $0.failedShards += failures }
        if let problem = savePlaceholders() { summary.withLock { $0.failedShards.append(problem) } }
        if let problem = shardIndexes?.update() { summary.withLock { $0.failedShards.append(problem) } }
        if localFolder == nil, shardIndexes != nil {
            let late = await sink.finish()
            summary.withLock { $0.failedShards += late.dropFirst(failures.count) }
        }
    }

    /// Stops starting rows and shards, and abandons the downloads in flight; ``run(observer:)`` then closes each
    /// started shard with the rows that finished (the next run fetches only the others) and returns. `signal`
    /// (SIGINT, SIGTERM) decides the exit status (``DatasetSummary/failure``).
    public func requestStop(signal: Int32 = BatchRunner.stopWithoutSignal) {
        runner.requestStop(signal: signal)
    }

    /// The shard ids earlier runs finished (incremental), or the first new id (extend); clears the folder (overwrite).
    func prepareOutput() throws(DatasetError) -> (done: Set<Int>, firstShard: Int) {
        let names: [String]
        do { names = try sink.list() } catch { throw .output("cannot list the output folder \(options.outputFolder): \(error)") }
        let statsIDs = names.filter { $0.hasSuffix("_stats.json") }.compactMap { Int($0.split(separator: "_").first ?? "") }
        switch options.incrementalMode {
        case .incremental: return (Set(statsIDs), 0)
        case .overwrite:
            // Not the spool of this run (or of another process of a --shard K/N run).
            for name in names where name != RowSpool.folderName { sink.remove(name) }
            return ([], 0)
        case .extend: return ([], (statsIDs.max() ?? -1) + 1)
        }
    }
}
