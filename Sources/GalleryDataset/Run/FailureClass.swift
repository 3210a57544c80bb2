/// Why a row did not succeed, by class, read from its status and img2dataset's text in its `error_message`:
/// what the run's summary counts, and what the hint is about when one class is most of the failures.
public enum FailureClass: String, Sendable, CaseIterable, Hashable {
    case dnsNoSuchName = "DNS: no such name"
    case dnsNoAnswer = "DNS: no answer or server failure"
    case dnsNoAddress = "DNS: no address"
    case connectRefused = "connection refused"
    case timedOut = "timed out"
    case tls = "TLS"
    case rateLimited = "HTTP 429 (rate limited)"
    case http4xx = "HTTP 4xx"
    case http5xx = "HTTP 5xx"
    case tooLarge = "too large"
    case hashMismatch = "hash mismatch"
    case notAnImage = "not an image"
    case filtered = "filtered (size, area, aspect ratio)"
    case optedOut = "opted out"
    case other = "other"

    /// The class of a row that ended with `status` and `message` (nil for a success).
    init?(status: RowOutcome.Status, message: String?) {
        let text = message ?? ""
        switch status {
        case .success: return nil
        case .optedOut: self = .optedOut
        case .failedToResize:
            self = text.hasPrefix("image ") || text.hasPrefix("aspect ratio") ? .filtered : .notAnImage
        case .failedToDownload:
            if text.contains("[Errno -2]") { self = .dnsNoSuchName }
            else if text.contains("[Errno -3]") { self = .dnsNoAnswer }
            else if text.contains("[Errno -5]") { self = .dnsNoAddress }
            else if text.contains("Connection refused") { self = .connectRefused }
            else if text == "timed out" { self = .timedOut }
            else if text.contains("SSL") || text.contains("CERTIFICATE") { self = .tls }
            else if text.hasPrefix("HTTP Error 429") { self = .rateLimited }
            else if text.hasPrefix("HTTP Error 4") { self = .http4xx }
            else if text.hasPrefix("HTTP Error 5") { self = .http5xx }
            else if text.contains("larger than") { self = .tooLarge }
            else if text == "hash mismatch" { self = .hashMismatch }
            else { self = .other }
        }
    }

    /// What to do when this class is most of the failures; nil when it is the web's doing (dead links, pages
    /// that are not images, opt-outs), not something an option changes.
    public var hint: String? {
        switch self {
        case .dnsNoAnswer:
            return "the resolver leaves most questions unanswered: it is the bottleneck or down; try another nameserver with --dns-server HOST"
        case .timedOut:
            return "raise --timeout, or lower --jobs if your link is full"
        case .rateLimited:
            return "sites limit your request rate: lower --per-host"
        case .tls:
            return "TLS fails: behind a proxy or with a private CA, give its certificates with --ca-certificates"
        case .connectRefused, .dnsNoSuchName, .dnsNoAddress, .http4xx, .http5xx, .tooLarge, .hashMismatch, .notAnImage,
             .filtered, .optedOut, .other:
            return nil
        }
    }
}

extension DatasetSummary {
    /// Rows that did not succeed, opt-outs included.
    public var failures: Int { failuresByClass.values.reduce(0, +) }

    /// The class that is at least half of at least 20 failures, with its share; nil when none is.
    public var dominantFailure: (failureClass: FailureClass, share: Double)? {
        let total = failures
        guard total >= 20, let top = failuresByClass.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key.rawValue > $1.key.rawValue) }),
              top.value * 2 >= total else { return nil }
        return (top.key, Double(top.value) / Double(total))
    }

    /// "timed out 120 (60%), HTTP 4xx 50 (25%), ...", largest first; nil without failures.
    public var failureBreakdown: String? {
        let total = failures
        guard total > 0 else { return nil }
        return failuresByClass.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key.rawValue < $1.key.rawValue) }
            .map { "\($0.key.rawValue) \($0.value) (\(Int((Double($0.value) * 100 / Double(total)).rounded()))%)" }
            .joined(separator: ", ")
    }

    /// The line saying what to do about the dominant class, when there is one and something can be done.
    public var failureHint: String? {
        guard let (top, share) = dominantFailure, let hint = top.hint else { return nil }
        return "\(Int((share * 100).rounded()))% of failures are '\(top.rawValue)': \(hint)"
    }
}
