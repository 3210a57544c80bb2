import Foundation

/// One shard's slice of any ``PhotoSource``: the pages or lines (its ``PhotoSource/shardUnit``) with
/// index mod N == K. A source listed by cursor cannot be divided: its reader says so and ends, and the
/// way to shard it is to plan it first (``GalleryRun/plan()``) and shard the plan.
///
/// Wrappers nest: a slice of a slice is the slice ``ShardSpec/subdivided(by:)`` gives.
struct ShardedSource: PhotoSource {
    /// The source divided.
    var base: any PhotoSource
    /// The slice of it this source reads.
    var shard: ShardSpec

    var name: String { base.name }
    var sourceDescription: String { base.sourceDescription }
    var shardUnit: ShardUnit? { base.shardUnit }
    var imageURLOrigin: ImageURLOrigin { base.imageURLOrigin }
    var secrets: [String] { base.secrets }

    func comments(of id: Int, engine: TransferEngine, maxBytes: Int64) async -> [Comment]? {
        await base.comments(of: id, engine: engine, maxBytes: maxBytes)
    }

    func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader {
        guard base.shardUnit != nil || (shard.isWhole && slice.isWhole) else {
            let reason = "\(base.name) lists by its own cursor and cannot be divided into shards: "
                + "plan it first and run the shards from the plan"
            return FailedReader(failure: ListingFailure(page: nil, reason: reason, isSourceError: true))
        }
        do throws(ShardError) {
            return base.reader(slice: try shard.subdivided(by: slice), context: context)
        } catch {
            return FailedReader(failure: ListingFailure(page: nil, reason: error.description, isSourceError: true))
        }
    }

    func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError) {
        try await base.didDownload(photo, client: client)
    }
}

extension ShardSpec {
    /// The part of this shard that shard `part` of it owns: of the units this shard owns (the j-th with
    /// j from 0), those with j mod part.count == part.index. Units i with i mod (N * n) == K + N * k.
    func subdivided(by part: ShardSpec) throws(ShardError) -> ShardSpec {
        let (count, overflow) = count.multipliedReportingOverflow(by: part.count)
        guard !overflow else { throw .badCount(.max) }
        return try ShardSpec(index: index + self.count * part.index, count: count)
    }
}

extension GalleryJob {
    /// The listing a run reads: the job's ``shard`` of it (``ShardedSource``), or all of it.
    var shardedSource: any PhotoSource {
        shard.map { ShardedSource(base: photoSource, shard: $0) } ?? photoSource
    }
}
