import DatasetFormats

extension DatasetRun {
    /// The trainers' indexes (``ShardIndexes``), in a local folder or a store.
    var shardIndexes: ShardIndexes? {
        indexes.withLock { cached in
            if let cached { return cached }
            let base = localFolder ?? sink.location
            let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
            let made = ShardIndexes(folder: localFolder, name: String(trimmed.split(separator: "/").last ?? ""),
                                    format: options.outputFormat, sink: sink)
            cached = made
            return made
        }
    }

    /// Where the shard writers write: the sink, through ``IndexingSink`` for a webdataset (its tars are indexed as
    /// they are written, not read back).
    var shardSink: any DatasetSink {
        guard options.outputFormat == .webdataset, let indexes = shardIndexes else { return sink }
        return IndexingSink(base: sink, indexes: indexes)
    }

    /// In a store: the shards an earlier run listed in its `shardindex.json` (a webdataset's) or `sizes.json`, read
    /// once, before this run writes.
    func adoptStoredIndex() async {
        guard localFolder == nil, let indexes = shardIndexes else { return }
        let name = options.outputFormat == .webdataset ? "shardindex.json" : "sizes.json"
        guard sink.exists(name), let data = await sink.read(name) else { return }
        if options.outputFormat == .webdataset { indexes.adopt(data) } else { indexes.adopt(sizes: data) }
    }
}
