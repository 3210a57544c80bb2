/// The limits of one host that is not like the others (``TransferConfiguration/hostLimits``): typically
/// one's own object store, which the run uploads to while it downloads from other people's servers.
///
/// ```swift
/// var configuration = TransferConfiguration()          // photos: 16 at once, 6 per host, 10/s per host
/// configuration.requestsPerSecondPerHost = 10
/// configuration.hostLimits[TransferConfiguration.hostKey(of: "http://127.0.0.1:7480")] = HostLimit(maxConcurrent: 32)
/// let engine = TransferEngine(configuration: configuration)  // + 32 uploads to the store, unpaced
/// ```
public struct HostLimit: Sendable, Equatable {
    /// Transfers running at once against the host; they are counted against this cap alone, not in
    /// ``TransferConfiguration/maxConcurrentTransfers``.
    public var maxConcurrent: Int
    /// Leave the host out of ``TransferConfiguration/requestsPerSecondPerHost`` (a host that answers
    /// 429 with a wait is still paused for it).
    public var exemptFromRate: Bool
    /// Report the host's transfers to ``TransferConfiguration/observers`` (off: a run's download progress
    /// and failures do not count its uploads).
    public var observed: Bool

    /// A cap of `maxConcurrent` transfers, no request rate, not reported to the observers by default.
    public init(maxConcurrent: Int, exemptFromRate: Bool = true, observed: Bool = false) {
        self.maxConcurrent = max(1, maxConcurrent)
        self.exemptFromRate = exemptFromRate
        self.observed = observed
    }
}
