import GalleryRunner

/// How `dataset` ends, in the statuses every command documents: the library decides, the CLI exits with it.
extension DatasetError: GalleryEnding {
    public var outcome: GalleryOutcome {
        switch self {
        case .invalidOption, .missingColumn: return .usage
        case .unreadableInput: return .unreadable
        case .output: return .failures
        case .store(let error): return error.outcome
        }
    }

    public var message: String? { description }
}

extension DatasetSummary {
    /// A stopped run ends as interrupted (SIGINT, 130) or terminated (SIGTERM, 143), saying what the next run
    /// does; otherwise a shard that could not be written ends the run with failures (each was printed with its
    /// reason); rows that failed are data, not a failure of the run, as in img2dataset.
    public var failure: GalleryFailure? {
        if tally.isStopped {
            var next: [String] = []
            if partialShards > 0 { next.append("\(partialShards) shard(s) keep the rows that finished (the next run fetches only the others)") }
            if unfinishedShards > 0 { next.append("\(unfinishedShards) unfinished shard(s) will be redone whole") }
            return tally.stopFailure("stopped: " + (next.isEmpty ? "the next run starts at the first unfinished shard" : next.joined(separator: "; ")))
        }
        return failedShards.isEmpty ? nil : GalleryFailure(.failures)
    }
}
