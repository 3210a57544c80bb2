import DatasetFormats

extension DatasetRun {
    /// The trainers' indexes (``ShardIndexes``) for a webdataset written to a local folder; nil otherwise.
    var shardIndexes: ShardIndexes? {
        guard options.outputFormat == .webdataset, let folder = localFolder else { return nil }
        return indexes.withLock { cached in
            if let cached { return cached }
            let made = ShardIndexes(folder: folder, sink: sink)
            cached = made
            return made
        }
    }
}
