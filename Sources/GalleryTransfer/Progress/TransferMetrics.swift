/// Per-transfer metrics across all attempts, mostly from curl_easy_getinfo of the last attempt.
public struct TransferMetrics: Sendable, Equatable {
    /// Attempts made, including the first.
    public var attempts = 0
    /// Body bytes received over the network in all attempts (a resumed prefix is not counted again).
    public var bytesReceived: Int64 = 0
    /// Bytes that were already on disk when the transfer was resumed.
    public var resumedFrom: Int64 = 0
    /// Wall-clock seconds from admission to the end, including backoff waits.
    public var wallTime: Double = 0
    /// The last attempt's libcurl timings and protocol.
    public var lastAttempt = AttemptMetrics()

    /// All zero.
    public init() {}

    /// Seconds to connect, to the first byte and in total in the last attempt, and its HTTP version.
    public var connectTime: Double { lastAttempt.connectTime }
    /// Seconds to the first byte of the last attempt.
    public var timeToFirstByte: Double { lastAttempt.timeToFirstByte }
    /// Seconds the last attempt took.
    public var totalTime: Double { lastAttempt.totalTime }
    /// The HTTP version of the last attempt (`1.1`, `2`).
    public var httpVersion: String { lastAttempt.httpVersion }
}
