import Foundation

/// `shards/K-of-N.summary.json`: what a finished shard did. Written after its photo lines, by
/// rename, so its presence means the part is complete; a shard that runs again removes it first.
public struct ShardSummary: Sendable, Hashable, Codable {
    /// The shard, from 0.
    public var shard: Int
    /// The job's shard count.
    public var shards: Int
    /// What the photos came from (the API base URL or the URL list's path).
    public var source: String
    /// Photos in the part (each listed once per shard).
    public var photos: Int
    /// Photos in the gallery.
    public var photosOK: Int
    /// Photos that failed.
    public var photosFailed: Int
    /// Photos their site opted out of AI use (`--respect-opt-out`), not counted in ``photosFailed``;
    /// nil (not written) when none.
    public var photosOptedOut: Int?
    /// Bytes of the part's complete originals.
    public var bytes: Int64
    /// Bytes downloaded by the run that finished the shard.
    public var bytesDownloaded: Int64
    /// Listing pages (or the URL list) read, and those that could not be.
    public var pagesFetched: Int
    /// Listing pages that could not be read.
    public var pagesFailed: Int
    /// Thumbnails made by the run that finished the shard.
    public var thumbnailsMade: Int
    /// When that run started and ended (ISO 8601, UTC), and how long it took.
    public var started: String
    /// When the run ended.
    public var finished: String
    /// Seconds the run took.
    public var durationSeconds: Double
    /// Failed photos by reason (the stage, with the HTTP status for downloads that got one).
    public var failuresByReason: [String: Int]
    /// Set when the shard's source could not be read at all (its first page failed).
    public var sourceError: String?

    enum CodingKeys: String, CodingKey {
        case shard, shards, source, photos, bytes, started, finished
        case photosOK = "photos_ok", photosFailed = "photos_failed", bytesDownloaded = "bytes_downloaded"
        case pagesFetched = "pages_fetched", pagesFailed = "pages_failed", thumbnailsMade = "thumbnails_made"
        case durationSeconds = "duration_seconds", failuresByReason = "failures_by_reason"
        case sourceError = "source_error", photosOptedOut = "photos_opted_out"
    }

    /// Fields that differ between two runs of the same work (times), for comparisons.
    public static let timingKeys: Set<String> = ["started", "finished", "duration_seconds", "generated"]

    /// The reason class of a failure recorded as `reason`: the stage (`download`, `imaging`, `source`,
    /// `gallery`), with `HTTP nnn` when a download got a status, so a summary groups, not lists.
    public static func reasonClass(_ reason: String) -> String {
        let stage = reason.split(separator: ":", maxSplits: 1).first.map(String.init) ?? reason
        if let range = reason.range(of: #"HTTP [0-9]{3}"#, options: .regularExpression) {
            return stage + ": " + reason[range]
        }
        if reason == GalleryManifest.incompleteReason { return "incomplete" }
        return stage
    }
}
