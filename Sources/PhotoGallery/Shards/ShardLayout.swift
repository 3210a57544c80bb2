import Glibc

/// Where a shard keeps its files in the shared gallery folder.
///
/// Everything a shard writes alone lives under names that carry its `K-of-N`, so shards running
/// at once in one folder never write the same file except the originals and thumbnails, which are
/// named by photo id and written whole by `rename(2)`: two shards that both fetch a photo publish
/// the same bytes under the same name. No correctness depends on a lock (locks over NFS are not
/// reliable); the per-shard lock only stops a shard being run twice at once on one machine.
///
/// - `.fetch-gallery/shards/K-of-N/journal.jsonl` and `lock`: the shard's own journal.
/// - `.fetch-gallery/shards/K-of-N/staging/`: the shard's downloads in progress (`NAME.part`),
///   renamed into `photos/` once complete, so two shards never append to one partial file.
/// - `shards/K-of-N.photos.jsonl`: the shard's part of the manifest, one photo per line.
/// - `shards/K-of-N.summary.json`: counts, bytes, duration and failures by reason, written last:
///   its presence marks the shard done.
public struct ShardLayout: Sendable, Hashable {
    /// The gallery folder.
    public var folder: String
    /// The shard.
    public var shard: ShardSpec

    /// The layout of `shard` in the gallery at `folder`.
    public init(folder: String, shard: ShardSpec) {
        self.folder = folder
        self.shard = shard
    }

    /// The folder of the finished shards' parts, relative to the gallery root.
    public static let partsFolder = "shards"
    /// Suffix of a part's photo lines.
    public static let photosSuffix = ".photos.jsonl"
    /// Suffix of a part's summary.
    public static let summarySuffix = ".summary.json"

    /// The shard's journal, relative to the gallery root.
    public var journalPath: String { ".fetch-gallery/shards/\(shard.fileStem)/journal.jsonl" }
    /// The shard's staging folder for downloads in progress, relative to the gallery root.
    public var stagingFolder: String { ".fetch-gallery/shards/\(shard.fileStem)/staging" }
    /// The part's photo lines, relative to the gallery root.
    public var photosPath: String { Self.partsFolder + "/" + shard.fileStem + Self.photosSuffix }
    /// The part's summary, relative to the gallery root.
    public var summaryPath: String { Self.partsFolder + "/" + shard.fileStem + Self.summarySuffix }
    /// Whether the shard has begun in this folder (its journal exists).
    public var hasStarted: Bool { POSIX.exists(folder + "/" + journalPath) }
}
