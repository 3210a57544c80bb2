import Foundation
import GallerySync

/// Politeness per host (host:port): request starts spaced by at least `1 / rate` seconds (retries
/// included), and a host that answered "rate limited" (429, or 403 saying so) with a wait gets no new
/// request from this engine until the wait is over, whichever transfer asks next.
///
/// Slots are handed out in order of asking, so N requests to one host at rate R start over (N - 1) / R
/// seconds however many run at once; the admission gate's concurrency limits apply on top.
final class HostPacer: Sendable {
    /// Nanoseconds between request starts to one host; nil: no spacing (pauses still apply).
    private let interval: UInt64?
    private let exemptsLoopback: Bool
    /// Hosts left out of the spacing (``HostLimit/exemptFromRate``).
    private let exempt: Set<String>
    /// Per host: the uptime (ns) before which no request may start.
    private let nextStart = Locked<[String: UInt64]>([:])

    init(requestsPerSecond: Double?, exemptsLoopback: Bool, exempt: Set<String> = []) {
        interval = requestsPerSecond.flatMap { $0 > 0 && $0.isFinite ? UInt64(1e9 / $0) : nil }
        self.exemptsLoopback = exemptsLoopback
        self.exempt = exempt
    }

    /// Takes the host's next start slot; returns the seconds to wait for it (0: go now).
    func reserve(host: String) -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        let spacing = exempt.contains(host) || exemptsLoopback && Self.isLoopback(host) ? nil : interval
        return nextStart.withLock { next -> Double in
            let slot = max(now, next[host] ?? 0)
            if let spacing {
                next[host] = slot + spacing
            } else if slot == now {
                next[host] = nil  // nothing pending: forget the host (the table stays small)
            }
            return Double(slot - now) / 1e9
        }
    }

    /// No request to `host` starts within the next `seconds` (a server's Retry-After on a rate limit).
    func pause(host: String, seconds: Double) {
        guard seconds > 0 else { return }
        let until = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        nextStart.withLock { $0[host] = max($0[host] ?? 0, until) }
    }

    /// "127.0.0.1:8080", "localhost:80", "[::1]:443": this machine, by the host key's text.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if let at = name.lastIndex(of: "@") { name = String(name[name.index(after: at)...]) }
        if name.hasPrefix("[") {
            name = String(name.dropFirst().prefix { $0 != "]" })
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return IPAddress(name)?.addressClass == .loopback
    }
}
