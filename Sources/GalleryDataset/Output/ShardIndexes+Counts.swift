import DatasetFormats
import Foundation
import GallerySystem

/// `sizes.json` and `_info.json` for the formats other than webdataset: one entry per shard file (`NNNNN.parquet`,
/// `NNNNN.tfrecord`, the folder `NNNNN` of the files format), its count the shard's `successes` (the samples with
/// an image; a parquet shard's rows without one are not counted). `shardindex.json` and `.idx` describe tars: none.
extension ShardIndexes {
    /// The file (or folder) that holds shard `id`'s samples.
    func shardFile(_ id: String) -> String { format == .files ? id : id + "." + format.rawValue }

    /// The entries of every finished shard in `names` (those whose ids are in `done`): in a folder from each shard's
    /// `_stats.json` (read again when it changed), in a store from what this run wrote (``counted(_:samples:)``) or
    /// the store's `sizes.json` (``adopt(sizes:)``).
    func countEntries(_ names: [String], done: Set<String>, known: inout [String: Entry]) -> [(tar: String, entry: Entry)] {
        let present = Set(names)
        var entries: [(tar: String, entry: Entry)] = []
        // A files shard without a success has no folder; it still counts 0.
        for id in done.sorted() where format == .files || present.contains(shardFile(id)) {
            let file = shardFile(id)
            guard let folder else {
                if let entry = known[file] { entries.append((file, entry)) }
                continue
            }
            let path = folder + "/" + id + "_stats.json"
            guard let status = Syscall.regularFileStatus(path) else { continue }
            let modified = [Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_size)]
            if let entry = known[file], entry.modified == modified {
                entries.append((file, entry))
                continue
            }
            guard let bytes = try? Syscall.readAll(path),
                  let stats = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  let successes = stats["successes"] as? Int else { continue }
            let entry = Entry(samples: successes, fileSize: 0, md5: "", modified: modified)
            known[file] = entry
            entries.append((file, entry))
        }
        return entries
    }

    /// A shard this run finished in a store, with `samples` successes (not a webdataset: its tars are indexed as written).
    func counted(_ shard: String, samples: Int) {
        guard folder == nil, format != .webdataset else { return }
        known.withLock { $0[shardFile(shard)] = Entry(samples: samples, fileSize: 0, md5: "", modified: []) }
    }

    /// The shards an earlier run listed in the store's `sizes.json`, for a format whose index it is.
    func adopt(sizes data: [UInt8]) {
        guard format != .webdataset, let sizes = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Int] else { return }
        known.withLock { known in
            for (file, samples) in sizes where known[file] == nil {
                known[file] = Entry(samples: samples, fileSize: 0, md5: "", modified: [])
            }
        }
    }
}
