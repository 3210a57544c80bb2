extension DatasetShardWriter {
    /// A shard is done when its `NNNNN_stats.json` exists: `finish(stats:)` writes it last.
    public static func isComplete(_ shardName: String, in sink: any DatasetSink) -> Bool {
        sink.exists("\(shardName)_stats.json")
    }

    /// Every name a shard of any format may leave, finished or not (`.part` files of a killed run included),
    /// stats file first, so that removing them in order unmarks the shard before its files go.
    public static func fileNames(of shardName: String) -> [String] {
        let names = ["\(shardName)_stats.json", "\(shardName).tar", "\(shardName).tfrecord", "\(shardName).parquet", shardName]
        return names.flatMap { [$0, "\($0).part"] }
    }

    /// Removes whatever a previous run left of the shard, to write it again (overwrite, or an interrupted shard).
    public static func removeShard(_ shardName: String, from sink: any DatasetSink) {
        for name in fileNames(of: shardName) { sink.remove(name) }
    }
}
