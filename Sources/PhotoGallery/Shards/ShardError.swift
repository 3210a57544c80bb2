/// Why a shard could not be chosen, or a sharded gallery could not be merged.
public enum ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--shard` was not of the form `K/N`.
    case unreadable(String)
    /// The shard count is not a positive number within the limit.
    case badCount(Int)
    /// The shard index is not in 0..<count.
    case indexOutOfRange(index: Int, count: Int)
    /// The engine's environment does not say which shard this is.
    case environment(String)
    /// No shard part was found in the gallery folder.
    case noParts(folder: String)
    /// Parts of different shard counts are in one folder.
    case mixedCounts(folder: String, counts: [Int])
    /// A part or summary file could not be read.
    case unreadablePart(path: String, reason: String)
    /// The folder could not be read or written.
    case gallery(GalleryError)

    /// One line naming the input and the reason.
    public var description: String {
        switch self {
        case let .unreadable(text):
            "--shard takes K/N with K from 0, e.g. 0/4 (got '\(text)')"
        case let .badCount(count):
            "the shard count must be between 1 and \(ShardSpec.maximumCount) (got \(count))"
        case let .indexOutOfRange(index, count):
            "shard \(index) is not one of 0...\(count - 1) of \(count) shards"
        case let .environment(reason):
            reason
        case let .noParts(folder):
            "no shard parts in \(folder)/\(ShardLayout.partsFolder) (run the shards first, or give --shards N to name the missing ones)"
        case let .mixedCounts(folder, counts):
            "\(folder)/\(ShardLayout.partsFolder) holds parts of different shard counts (\(counts.map(String.init).joined(separator: ", "))); remove the stale ones"
        case let .unreadablePart(path, reason):
            "cannot read the shard part \(path): \(reason)"
        case let .gallery(error):
            error.description
        }
    }
}
