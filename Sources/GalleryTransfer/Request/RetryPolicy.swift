import Foundation

/// When and how long to wait before another attempt: exponential backoff with full jitter, and the server's
/// `Retry-After` (seconds or an HTTP date) honoured up to a cap.
public struct RetryPolicy: Sendable {
    /// Statuses worth another attempt; other 4xx are the caller's problem and are not retried.
    public static let retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Attempts in total, including the first.
    public var maxAttempts = 5
    /// The first backoff ceiling, doubled each attempt up to `maxBackoff` (seconds).
    public var baseBackoff: Double = 0.25
    /// The longest backoff between attempts, in seconds.
    public var maxBackoff: Double = 10
    /// The longest `Retry-After` we wait for; a longer one is cut to this (seconds).
    public var maxRetryAfter: Double = 30

    /// A policy; the defaults allow 5 attempts with backoff from 0.25 s to 10 s.
    public init(maxAttempts: Int = 5, baseBackoff: Double = 0.25, maxBackoff: Double = 10, maxRetryAfter: Double = 30) {
        self.maxAttempts = maxAttempts
        self.baseBackoff = baseBackoff
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
    }

    /// Seconds to wait after failed attempt number `attempt` (1-based). Full jitter spreads retries of many
    /// clients uniformly over [0, ceiling] so they do not return in lockstep.
    public func delay(afterAttempt attempt: Int, retryAfter: String?, now: Date = Date(),
                      random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) -> Double {
        if let retryAfter, let seconds = Self.parseRetryAfter(retryAfter, now: now) {
            return min(max(0, seconds), maxRetryAfter)
        }
        let ceiling = min(maxBackoff, baseBackoff * pow(2, Double(max(0, attempt - 1))))
        return random(0...max(0, ceiling))
    }

    /// `Retry-After: 120` or `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT` as seconds from `now`.
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Double? {
        let v = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(v), seconds.isFinite { return max(0, seconds) }
        guard let date = HTTPDate.parse(v) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// The three date formats RFC 9110 requires recipients to accept.
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "GMT")
            f.dateFormat = format
            if let d = f.date(from: text) { return d }
        }
        return nil
    }

    static func format(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: date)
    }
}
