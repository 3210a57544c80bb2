import Foundation

/// What a service's rate-limit headers say, and how long to hold off before the next request.
///
/// Read from every answer (pure functions, unit-tested on the services' documented headers):
/// - `X-Ratelimit-Remaining` / `X-Ratelimit-Reset` (Unsplash, Pexels; Pexels sends them only on
///   successful answers, the reset as a UNIX time; Unsplash sends no reset: its budget is hourly);
/// - Openverse's `X-RateLimit-Available-anon_burst` (a minute's budget) and `-anon_sustained` (a day's);
/// - on a 429 (or a 403 saying "rate limit"): `Retry-After`, else the reset above, else Openverse's
///   body `{"detail":"Request was throttled. Expected available in N seconds."}`.
public struct RateLimitState: Sendable, Hashable {
    /// No request before this time.
    public var blockedUntil: Date?
    /// Why, for the message when the wait is too long.
    public var reason: String?

    /// Nothing known yet.
    public init() {}

    /// Takes in the headers of an answer (successful, or limited): a spent budget blocks until it resets.
    public mutating func note(success headers: [String: String], now: Date = Date()) {
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value.trimmingCharacters(in: .whitespaces)
        }
        if let sustained = header("X-RateLimit-Available-anon_sustained").flatMap(Int.init), sustained <= 0 {
            block(until: now.addingTimeInterval(24 * 3600), "the daily budget (X-RateLimit-Available-anon_sustained: 0) is spent")
        } else if let burst = header("X-RateLimit-Available-anon_burst").flatMap(Int.init), burst <= 0 {
            block(until: now.addingTimeInterval(60), "the per-minute budget (X-RateLimit-Available-anon_burst: 0) is spent")
        }
        if let remaining = header("X-Ratelimit-Remaining").flatMap(Int.init), remaining <= 0 {
            let reset = header("X-Ratelimit-Reset").flatMap { Self.resetDate($0, now: now) } ?? now.addingTimeInterval(3600)
            block(until: reset, "the request budget (X-Ratelimit-Remaining: 0) is spent")
        }
    }

    /// How long to wait after a rate-limited answer (429, or 403 "rate limit exceeded").
    public static func wait(afterLimited headers: [String: String], body: String, now: Date = Date()) -> Double? {
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value.trimmingCharacters(in: .whitespaces)
        }
        if let retryAfter = header("Retry-After"), let seconds = RetryPolicy.parseRetryAfter(retryAfter, now: now) {
            return seconds
        }
        if let reset = header("X-Ratelimit-Reset").flatMap({ resetDate($0, now: now) }) {
            return max(0, reset.timeIntervalSince(now))
        }
        return throttleDetail(body)
    }

    /// Openverse's (Django REST framework's) throttle message: "Expected available in N seconds."
    public static func throttleDetail(_ body: String) -> Double? {
        guard let range = body.range(of: "available in ") else { return nil }
        let digits = body[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }

    /// A reset given as a UNIX time (Pexels) or as seconds from now (others).
    static func resetDate(_ text: String, now: Date) -> Date? {
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return value > 1_000_000_000 ? Date(timeIntervalSince1970: value) : now.addingTimeInterval(value)
    }

    /// Whether an answer says the client is over its limit.
    public static func isLimited(status: Int, body: String) -> Bool {
        status == 429 || (status == 403 && body.lowercased().contains("rate limit"))
    }

    private mutating func block(until date: Date, _ why: String) {
        if let blockedUntil, blockedUntil >= date { return }
        blockedUntil = date
        reason = why
    }
}
