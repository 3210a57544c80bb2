/// Which slice of a job one worker does: shard `index` of `count`, `index` from 0.
///
/// Listing pages p (from 1) with (p - 1) mod count == index, and URL-list lines i (from 0) with
/// i mod count == index: a shard never reads another shard's pages, and appending lines to a list
/// never moves the earlier ones to another shard.
public struct ShardSpec: Sendable, Hashable, CustomStringConvertible {
    /// This shard, from 0.
    public let index: Int
    /// How many shards the job has.
    public let count: Int

    /// The whole job as one shard (what a run without `--shard` does).
    public static let whole = ShardSpec(uncheckedIndex: 0, count: 1)

    /// Shard `index` of `count`; throws when `count` < 1 or `index` is not in 0..<count.
    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1, count <= Self.maximumCount else { throw .badCount(count) }
        guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
        self.init(uncheckedIndex: index, count: count)
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// More shards than any engine's array allows (Slurm's MaxArraySize is at most 4,000,001).
    public static let maximumCount = 10_000_000

    /// Parses `K/N`, e.g. `3/4`.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .unreadable(text)
        }
        try self.init(index: index, count: count)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// `K-of-N`: the shard's name in file names.
    public var fileStem: String { "\(index)-of-\(count)" }

    /// Whether this shard is the whole job.
    public var isWhole: Bool { count == 1 }

    /// Whether listing page `page` (from 1) belongs to this shard.
    public func owns(page: Int) -> Bool { page >= 1 && (page - 1) % count == index }

    /// Whether URL-list line `line` (from 0) belongs to this shard.
    public func owns(line: Int) -> Bool { line >= 0 && line % count == index }

    /// This shard's first listing page.
    public var firstPage: Int { index + 1 }

    /// The shard's page after `page`.
    public func page(after page: Int) -> Int { page + count }
}
