import DatasetFormats
import Foundation
import GalleryImaging
import GallerySync
import GalleryTransfer

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
}

/// What a run did.
public struct DatasetSummary: Sendable, Equatable {
    public var rows = 0
    public var successes = 0
    public var failedToDownload = 0
    public var failedToResize = 0
    /// Rows a site's AI opt-out signal kept out (status `opted_out`).
    public var optedOut = 0
    public var shardsWritten = 0
    /// Shards an earlier run finished (their `_stats.json` exists).
    public var shardsAlreadyDone = 0
    /// Shards that could not be written, with the reason (the run goes on with the others).
    public var failedShards: [String] = []
}

/// `fetch-gallery dataset`: the URL list cut into shards, each row downloaded through the project's engine,
/// checked and resized with its codecs, and each shard written by `DatasetShardWriter` in img2dataset's layout.
public final class DatasetRun: Sendable {
    public let options: DatasetOptions
    let sink: any DatasetSink
    let engine: TransferEngine
    let pool: WorkerPool
    let fetcher: RowFetcher
    let processor: DatasetImageProcessor
    /// Where bodies over ``DatasetOptions/bodyMemoryLimit`` wait for a worker (nil: every body in memory).
    let spool: RowSpool?

    /// A run writing into `sink`; `observers` hear the engine's transfers (bytes, for progress).
    public convenience init(options: DatasetOptions, sink: any DatasetSink, observers: [any TransferObserver] = []) throws(DatasetError) {
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

    init(options: DatasetOptions, observers: [any TransferObserver], store: GalleryStoreOptions? = nil,
         sink makeSink: (TransferEngine) throws(DatasetError) -> any DatasetSink) throws(DatasetError) {
        try options.validate()
        self.options = options
        var configuration = Self.transferConfiguration(options, observers: observers)
        if let store { GalleryStores.limitHost(of: options.outputFolder, options: store, in: &configuration) }
        let engine = TransferEngine(configuration: configuration)
        self.engine = engine
        do { sink = try makeSink(engine) } catch {
            engine.shutdown()
            throw error
        }
        if let limit = options.bodyMemoryLimit {
            let base = (sink as? any DatasetStoreSink)?.scratchFolder
                ?? NSTemporaryDirectory() + "/fetch-gallery-" + RowSpool.folderName.dropFirst()
            do { spool = try RowSpool(base: base, memoryLimit: limit) } catch {
                engine.shutdown()
                throw error
            }
        } else {
            spool = nil
        }
        pool = WorkerPool(threads: options.workers > 0 ? options.workers : ProcessInfo.processInfo.activeProcessorCount)
        fetcher = RowFetcher(engine: engine, userAgent: RowFetcher.userAgent(token: options.userAgentToken),
                             optOut: options.optOut.map { OptOutGate(policy: $0, engine: engine) })
        processor = DatasetImageProcessor(options: options.image)
    }

    /// What the store did, for the command's last line (nil for a folder).
    public var storeActivity: String? { (sink as? any DatasetStoreSink)?.activity }

    deinit {
        (sink as? any DatasetStoreSink)?.close()
        engine.shutdown()
        pool.shutdown()
        spool?.close()
    }

    /// img2dataset's socket timeout as the engine's limits: `--timeout` to connect, and a download that
    /// receives nothing for `--timeout` seconds fails; `--retries` extra attempts for what is worth retrying.
    static func transferConfiguration(_ options: DatasetOptions, observers: [any TransferObserver]) -> TransferConfiguration {
        var config = TransferConfiguration()
        config.maxConcurrentTransfers = options.jobs
        config.maxConcurrentPerHost = options.perHost
        config.connectTimeout = options.timeout
        config.lowSpeedLimit = 1
        config.lowSpeedWindow = max(1, Int(options.timeout.rounded(.up)))
        config.deadline = max(60, options.timeout * 6)
        config.retry.maxAttempts = options.retries + 1
        config.requestsPerSecondPerHost = nil
        config.maxBodyBytes = 64 << 20
        config.resolver = options.resolver
        config.allowsLinkLocal = options.allowsLinkLocal
        config.observers = observers
        return config
    }

    /// Runs every shard this process is to do. Rows fail one by one in the metadata; what stops the run is an
    /// unreadable input or a missing column (after the shards already started are finished and written).
    public func run(observer: (any DatasetRunObserver)? = nil) async throws(DatasetError) -> DatasetSummary {
        let files = try options.inputFormat.inputFiles(at: options.urlList)
        let store = sink as? any DatasetStoreSink
        do throws(GalleryStoreError) { try await store?.prepare() } catch { throw .store(error) }
        let (done, firstShard) = try prepareOutput()
        // --retry-failed reads the shards it rewrites back from the folder.
        let retryFolder = (sink as? LocalFolderSink)?.folder
        if options.retryFailed {
            guard retryFolder != nil else { throw .invalidOption("--retry-failed needs a local --output-folder (not a store)") }
            guard options.incrementalMode == .incremental else { throw .invalidOption("--retry-failed works with --incremental-mode incremental") }
        }
        let reader = ShardReader(files: files, format: options.inputFormat, columns: options.columns,
                                 perShard: options.numberSamplePerShard, firstShard: firstShard)
        guard let first = try reader.next() else { return DatasetSummary() }
        // Every process of a --shard K/N run reads the same first shard, so all infer the same types.
        let types = reader.keptNames.indices.map { i in
            ["url", "caption", options.columns.verifyHash?.algorithm].contains(reader.keptNames[i])
                ? DatasetColumnType.string : DatasetColumnType.infer(first.rows.map { $0.values[i] })
        }
        let schema = DatasetSchema(keptNames: reader.keptNames, keptTypes: types, extractExif: options.extractExif,
                                   hash: options.computeHash)
        // Shards another --shard writes, or an earlier run finished, are counted, not read.
        let sharding = options.shard
        let retries = options.retryFailed
        reader.readsRows = { id in (retries || !done.contains(id)) && sharding.map { id % $0.count == $0.index } ?? true }
        let summary = Locked(DatasetSummary())
        var stop: DatasetError?
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            var next: (id: Int, rows: [DatasetRow], count: Int)? = first
            while let shard = next {
                let name = options.shardName(shard.id)
                if let sharding = options.shard, shard.id % sharding.count != sharding.index {
                    observer?.shardSkipped(name: name, rows: shard.count, done: false)
                } else if done.contains(shard.id), !options.retryFailed {
                    summary.withLock { $0.shardsAlreadyDone += 1 }
                    observer?.shardSkipped(name: name, rows: shard.count, done: true)
                } else {
                    var previous: PreviousShard?
                    if done.contains(shard.id) {
                        // --retry-failed: a finished shard is rewritten only when some of its rows failed to download.
                        do throws(DatasetError) { previous = try retryFolder.map { folder throws(DatasetError) in
                            try PreviousShard(name: name, folder: folder, format: options.outputFormat, schema: schema.columns,
                                              imageExtension: options.image.encodeFormat.rawValue) }
                        } catch {
                            summary.withLock { $0.failedShards.append("\(name): \(error)") }
                        }
                        guard let previous, previous.failedToDownload > 0 else {
                            if previous != nil { summary.withLock { $0.shardsAlreadyDone += 1 } }
                            observer?.shardSkipped(name: name, rows: shard.count, done: true)
                            do throws(DatasetError) { next = try reader.next() } catch { stop = error; next = nil }
                            continue
                        }
                    }
                    if running >= options.shardsInFlight { await group.next(); running -= 1 }
                    running += 1
                    observer?.shardStarted(name: name, rows: shard.rows.count)
                    // On the pool's threads, rows and all (see WorkerPool's TaskExecutor): no hop through Swift's pool.
                    group.addTask(executorPreference: pool) { [previous] in
                        await self.runShard(shard.id, rows: shard.rows, schema: schema, previous: previous, summary: summary, observer: observer)
                    }
                }
                do throws(DatasetError) { next = try reader.next() } catch { stop = error; next = nil }
            }
        }
        // A store's uploads finish after their shards: a shard whose file could not be stored has no stats there.
        if let store {
            let failures = await store.finish()
            summary.withLock { $0.failedShards += failures }
        }
        if let stop { throw stop }
        return summary.withLock { $0 }
    }

    /// The shard ids earlier runs finished (incremental), or the first new id (extend); clears the folder (overwrite).
    func prepareOutput() throws(DatasetError) -> (done: Set<Int>, firstShard: Int) {
        let names: [String]
        do { names = try sink.list() } catch { throw .output("cannot list the output folder \(options.outputFolder): \(error)") }
        let statsIDs = names.filter { $0.hasSuffix(".json") }.compactMap { Int($0.split(separator: "_").first ?? "") }
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
