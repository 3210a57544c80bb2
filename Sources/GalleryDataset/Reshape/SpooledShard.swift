import Foundation
import GallerySystem

/// One shard of a dataset in a store, copied into a local folder of its own to be read (``StoredDataset``):
/// the folder is removed when the last thing that reads it lets go: its reader, and every sample whose image
/// bytes are still to be read from it (``DatasetReshapeSource/spool``). So the local copies are those of the
/// old shards whose samples are in flight, whatever the dataset's number of shards.
final class SpooledShard: Sendable {
    /// The local folder holding the shard's file (or, for the `files` format, its shard folder).
    let folder: String
    /// The shard's file (or shard folder) in ``folder``.
    let path: String

    init(folder: String, path: String) {
        self.folder = folder
        self.path = path
    }

    deinit { Self.removeTree(folder) }

    /// Removes `path` and, for a folder, everything in it (a `files` shard's folder holds its files).
    static func removeTree(_ path: String) {
        guard let info = Syscall.status(path) else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { _ = Syscall.remove(path); return }
        for name in (try? Syscall.names(in: path)) ?? [] { removeTree(path + "/" + name) }
        _ = Syscall.removeEmptyDirectory(path)
    }
}

/// The reader of a spooled shard: the format's own reader of the local copy, whose records keep the copy
/// alive, and whose errors name the shard's object (`s3://bucket/prefix/00002.tar`) instead of the copy.
final class SpooledShardReader: InputRecordReader {
    private let inner: any InputRecordReader
    private let shard: SpooledShard
    /// The object's location, for messages.
    private let remote: String

    init(shard: SpooledShard, remote: String, format: DatasetInputFormat) throws(DatasetError) {
        self.shard = shard
        self.remote = remote
        do { inner = try format.reader(path: shard.path) } catch { throw Self.renamed(error, shard: shard, remote: remote) }
    }

    var columns: [String] { inner.columns }

    func next() throws(DatasetError) -> InputRecord? {
        do {
            var record = try inner.next()
            record?.reshape?.spool = shard
            return record
        } catch {
            throw Self.renamed(error, shard: shard, remote: remote)
        }
    }

    func skip(_ count: Int) throws(DatasetError) -> Int {
        do { return try inner.skip(count) } catch { throw Self.renamed(error, shard: shard, remote: remote) }
    }

    /// `error` with the local copy's path (a member of it too: `00000/KEY.json`) said as the object's location.
    static func renamed(_ error: DatasetError, shard: SpooledShard, remote: String) -> DatasetError {
        func name(_ path: String) -> String { path.hasPrefix(shard.path) ? remote + path.dropFirst(shard.path.count) : path }
        func text(_ reason: String) -> String { reason.replacingOccurrences(of: shard.path, with: remote) }
        switch error {
        case let .unreadableInput(path, reason): return .unreadableInput(path: name(path), reason: text(reason))
        case let .missingColumn(path, column, available): return .missingColumn(path: name(path), column: column, available: available)
        default: return error
        }
    }
}
