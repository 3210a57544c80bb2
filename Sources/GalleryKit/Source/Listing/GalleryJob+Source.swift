import Foundation

extension GalleryJob {
    /// The job's listing as a ``PhotoSource``, whole (what ``GalleryRun/plan()`` reads).
    var photoSource: any PhotoSource {
        switch source {
        case .api(let base, let key):
            PageAPISource(api: FiveHundredPxSource(base: base, consumerKey: key, perPage: perPage, pageAttempts: pageAttempts))
        case .urlList(let text, let name):
            URLListFileSource(text: text, fileName: name)
        case .plan(let path, let source):
            PlanSource(path: path, recordedSource: source)
        case .service(let service):
            ServiceSource(service: service)
        }
    }

    /// The listing a run reads: the job's ``shard`` of it (``ShardedSource``), or all of it.
    var shardedSource: any PhotoSource {
        shard.map { ShardedSource(base: photoSource, shard: $0) } ?? photoSource
    }
}
