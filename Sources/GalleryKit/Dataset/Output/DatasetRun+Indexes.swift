import DatasetFormats

extension DatasetRun {
    /// The trainers' indexes (``ShardIndexes``) for a webdataset written to a local folder; nil otherwise.
    var shardIndexes: ShardIndexes? {
        guard options.outputFormat == .webdataset, let local = sink as? LocalFolderSink else { return nil }
        return indexes.withLock { cached in
            if let cached { return cached }
            let made = ShardIndexes(folder: local.folder, sink: sink)
            cached = made
            return made
        }
    }
}
