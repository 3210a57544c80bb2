import DatasetFormats
import GallerySync

/// A shard the run works on: its rows, and what an earlier run left of it.
struct ShardWork: Sendable {
    let id: Int
    let rows: [DatasetRow]
    /// The shard as an earlier run wrote it: finished (`--retry-failed`) or closed by a stop (a partial shard).
    let previous: PreviousShard?
    /// Whether every row of `previous` is kept (a partial shard: each of its rows finished), or all but those
    /// that failed to download (`--retry-failed`).
    let keepsFailures: Bool

    /// The row `previous` holds for `key` and this run keeps as it is, or nil when the row is fetched.
    func kept(_ key: String) -> PreviousShard.Row? {
        guard let row = previous?.rows[key] else { return nil }
        return keepsFailures || row.status != .failedToDownload ? row : nil
    }
}

/// The shards this process works on, in order, as the run's loop takes them: another `--shard`'s are passed over,
/// a finished one is counted as done (or, with `--retry-failed`, read back when rows of it failed to download),
/// and one a stopped run closed with part of its rows is read back so that only the others are fetched.
///
/// Used by the run's task alone (it reads the URL list as it goes), so it is not `Sendable`.
final class ShardQueue {
    private let run: DatasetRun
    private let reader: ShardReader
    private var first: (id: Int, rows: [DatasetRow], count: Int)?
    private let done: Set<Int>
    private let schema: DatasetSchema
    private let summary: Locked<DatasetSummary>
    private let observer: (any DatasetRunObserver)?

    init(run: DatasetRun, reader: ShardReader, first: (id: Int, rows: [DatasetRow], count: Int), done: Set<Int>,
         schema: DatasetSchema, summary: Locked<DatasetSummary>, observer: (any DatasetRunObserver)?) {
        self.run = run
        self.reader = reader
        self.first = first
        self.done = done
        self.schema = schema
        self.summary = summary
        self.observer = observer
    }

    /// The next shard to work on, nil at the end of the list.
    func next() async throws(DatasetError) -> ShardWork? {
        let options = run.options
        while true {
            guard let shard = try await take() else { return nil }
            let name = options.shardName(shard.id)
            if let sharding = options.shard, shard.id % sharding.count != sharding.index {
                observer?.shardSkipped(name: name, rows: shard.count, done: false)
                continue
            }
            if done.contains(shard.id) {
                // --retry-failed: a finished shard is rewritten only when some of its rows failed to download.
                let previous = options.retryFailed ? read(name) : nil
                guard let previous, previous.failedToDownload > 0 || run.holdsPlaceholders(previous, schema: schema) else {
                    if !options.retryFailed || previous != nil { summary.withLock { $0.shardsAlreadyDone += 1 } }
                    observer?.shardSkipped(name: name, rows: shard.count, done: true)
                    continue
                }
                return ShardWork(id: shard.id, rows: shard.rows, previous: previous, keepsFailures: false)
            }
            if run.resumesPartialShards, DatasetShardWriter.isPartial(name, in: run.sink) {
                if let previous = read(name, reporting: false) {
                    return ShardWork(id: shard.id, rows: shard.rows, previous: previous, keepsFailures: true)
                }
                // Unreadable: the shard is written again whole, and is no longer marked partial.
                run.sink.remove(DatasetShardWriter.partialName(name))
            }
            return ShardWork(id: shard.id, rows: shard.rows, previous: nil, keepsFailures: false)
        }
    }

    private func take() async throws(DatasetError) -> (id: Int, rows: [DatasetRow], count: Int)? {
        if let shard = first {
            first = nil
            return shard
        }
        return try await reader.next()
    }

    /// Shard `name` as the output folder holds it, or nil (when `reporting`, the reason recorded with the failed
    /// shards).
    private func read(_ name: String, reporting: Bool = true) -> PreviousShard? {
        guard let folder = run.localFolder else { return nil }
        let options = run.options
        do throws(DatasetError) {
            return try PreviousShard(name: name, folder: folder, format: options.outputFormat, schema: schema.columns,
                                     imageExtension: options.image.encodeFormat.rawValue)
        } catch {
            if reporting { summary.withLock { $0.failedShards.append("\(name): \(error)") } }
            return nil
        }
    }
}
