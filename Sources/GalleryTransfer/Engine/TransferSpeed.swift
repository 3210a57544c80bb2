import Foundation

/// Tumbling windows of `seconds`: at the end of each, fewer than `limit * seconds` new bytes means too slow.
/// Waiting for the response head counts, so a server that never answers is caught too.
struct SpeedWindow {
    private var start: UInt64 = 0
    private var bytesAtStart: Int64 = 0

    mutating func isTooSlow(bytes: Int64, now: UInt64, limit: Int, seconds: Int) -> Bool {
        if start == 0 {
            start = now
            bytesAtStart = bytes
            return false
        }
        let elapsed = Double(now - start) / 1e9
        guard elapsed >= Double(seconds) else { return false }
        let rate = Double(bytes - bytesAtStart) / elapsed
        start = now
        bytesAtStart = bytes
        return rate < Double(limit)
    }
}

/// Whether a body with a declared length can still finish in time: at its speed so far, measured over at
/// least the low-speed window (a second at least), would the rest arrive more than a quarter past the
/// attempt's timeout? Then, where the engine is asked to (``TransferConfiguration/endsBodiesThatCannotFinish``:
/// `dataset`), it ends now rather than at the deadline, which it would reach unfinished. A
/// body fast enough for the low-speed limit otherwise holds its place to the deadline: an endless stream
/// served as a large file at 256 KB/s held it for the whole 60 s, most of a run's tail. The quarter lets a
/// body whose speed varies finish; a body without a declared length is left to the deadline and
/// `--max-image-bytes`.
struct DeadlineProjection {
    /// The attempt's timeout (what is left of the transfer's deadline); 0 or less: none.
    var timeoutSeconds: Double
    var windowSeconds: Double

    /// The reason to stop, or nil to go on. Times are uptime nanoseconds: the attempt's start, its body's start.
    func reason(now: UInt64, start: UInt64, bodyStart: UInt64, bodyBytes: Int64, length: Int64) -> TransferError.Reason? {
        guard timeoutSeconds > 0, bodyBytes > 0, length > bodyBytes, now > bodyStart, bodyStart >= start else { return nil }
        let bodySeconds = Double(now - bodyStart) / 1e9
        guard bodySeconds >= max(1, windowSeconds) else { return nil }
        let speed = Double(bodyBytes) / bodySeconds
        let elapsed = Double(now - start) / 1e9
        guard elapsed + Double(length - bodyBytes) / speed > 1.25 * timeoutSeconds else { return nil }
        return .cannotFinishInTime(bytesPerSecond: Int(speed), bytesLeft: length - bodyBytes,
                                   secondsLeft: max(0, Int((timeoutSeconds - elapsed).rounded())))
    }
}
