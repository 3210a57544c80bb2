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
    /// A shard that could not be written ends the run with failures (each was printed with its reason);
    /// rows that failed are data, not a failure of the run, as in img2dataset.
    public var failure: GalleryFailure? {
        failedShards.isEmpty ? nil : GalleryFailure(.failures)
    }
}
