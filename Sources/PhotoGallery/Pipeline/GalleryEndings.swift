import GalleryRunner

extension GalleryRunSummary {
    /// How `run` ended: interrupted; the source stopped early, or nothing of it could be read (and no
    /// photo was made); some photos or pages failed; or nil, done.
    public var runFailure: GalleryFailure? {
        if let stopped = tally.stopFailure() { return stopped }
        if let sourceStopped {
            return GalleryFailure(.unreadable, "the source stopped early: \(GalleryFailure.oneLine(sourceStopped, limit: 2000))")
        }
        if let sourceError, photosOK == 0 {
            return GalleryFailure(.unreadable, "the source could not be read: \(GalleryFailure.oneLine(sourceError, limit: 2000))")
        }
        if photosFailed > 0 || pagesFailed > 0 { return GalleryFailure(.failures) }
        return nil
    }

    /// How `plan` ended, the plan being at `planLocation`: interrupted; nothing of the source could be
    /// read; a listing page failed (no plan written, the earlier one kept); or nil, the plan is written.
    public func planFailure(planLocation: String) -> GalleryFailure? {
        if interrupted { return GalleryFailure(.interrupted) }
        if let sourceError {
            return GalleryFailure(.unreadable, "the source could not be read: \(GalleryFailure.oneLine(sourceError, limit: 2000))")
        }
        if pagesFailed > 0 {
            return GalleryFailure(.failures, "\(pagesFailed) listing pages failed; no plan written (\(planLocation) is unchanged): run it again")
        }
        return nil
    }
}

extension MergeReport {
    /// How `merge` ended: a shard missing, unfinished or without its source, or failed photos (each
    /// named by the report and `gallery.json`); nil when every shard finished and every photo is in.
    public var failure: GalleryFailure? {
        isComplete && photosFailed == 0 ? nil : GalleryFailure(.failures)
    }
}

extension ShardError: GalleryEnding {
    /// A merge that finds no part, or parts of different counts, or a count that cannot be: a usage
    /// error (the folder or `--shards` is wrong); anything else fails the merge.
    public var outcome: GalleryOutcome {
        switch self {
        case .noParts, .badCount, .mixedCounts: .usage
        default: .failures
        }
    }

    public var message: String? { description }
}

extension PipelineError: GalleryEnding {
    /// A run or a plan that could not go on at all (its folder unwritable): it fails.
    public var outcome: GalleryOutcome { .failures }
    public var message: String? { description }
}
