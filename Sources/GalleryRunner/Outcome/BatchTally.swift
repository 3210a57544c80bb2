/// What a batch run did with its items, in the words both products report: a gallery's photos and a
/// dataset's rows are each taken on, then done, failed, or kept out by their site's AI opt-out (which is
/// not a failure); and the run either reached its end or was stopped.
///
/// `GalleryRunSummary` (the photos) and `DatasetSummary` (the rows) each hold one, beside what only their
/// product counts (listing pages and thumbnails; shards and failure classes).
public struct BatchTally: Sendable, Hashable {
    /// Items the run took on.
    public var items = 0
    /// Items done.
    public var succeeded = 0
    /// Items that failed (those opted out are not among them).
    public var failed = 0
    /// Items their site's AI opt-out signal kept out.
    public var optedOut = 0
    /// The signal that stopped the run (``BatchRunner/stopWithoutSignal`` for a stop by code); nil when
    /// it ran to its end.
    public var stopSignal: Int32?

    /// Nothing counted, not stopped.
    public init() {}

    /// Whether the run was stopped before its end.
    public var isStopped: Bool {
        get { stopSignal != nil }
        set { stopSignal = newValue ? (stopSignal ?? BatchRunner.stopWithoutSignal) : nil }
    }

    /// How a stopped run ends (SIGTERM: terminated, any other: interrupted), saying `message`; nil when
    /// it ran to its end.
    public func stopFailure(_ message: String? = nil) -> GalleryFailure? {
        stopSignal == nil ? nil : GalleryFailure(.stopped(by: stopSignal), message)
    }

    /// Counts `other`'s items in (a shard's); whether the run stopped is the run's own, not counted.
    public mutating func add(_ other: BatchTally) {
        items += other.items
        succeeded += other.succeeded
        failed += other.failed
        optedOut += other.optedOut
    }
}
