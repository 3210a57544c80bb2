extension DatasetShardWriter {
    /// A shard is done when its `NNNNN_stats.json` exists: `finish(stats:)` writes it last.
    public static func isComplete(_ shardName: String, in sink: any DatasetSink) -> Bool {
        sink.exists("\(shardName)_stats.json")
    }

    /// The marker of a shard a stopped run closed with the rows it had (``finishPartial(rows:)``).
    public static func partialName(_ shardName: String) -> String { "\(shardName)_partial.json" }

    /// Whether a stopped run left the shard closed with some of its rows (and no stats: not done).
    public static func isPartial(_ shardName: String, in sink: any DatasetSink) -> Bool {
        sink.exists(partialName(shardName)) && !isComplete(shardName, in: sink)
    }

    /// Every name a shard of any format may leave, finished or not (`.part` files of a killed run included),
    /// stats file first, so that removing them in order unmarks the shard before its files go.
    public static func fileNames(of shardName: String) -> [String] {
        let names = ["\(shardName)_stats.json", partialName(shardName), "\(shardName).tar", "\(shardName).tfrecord", "\(shardName).parquet", shardName]
        return names.flatMap { [$0, "\($0).part"] }
    }

    /// Removes whatever a previous run left of the shard, to write it again (overwrite, or an interrupted shard).
    public static func removeShard(_ shardName: String, from sink: any DatasetSink) {
        for name in fileNames(of: shardName) { sink.remove(name) }
    }
}
