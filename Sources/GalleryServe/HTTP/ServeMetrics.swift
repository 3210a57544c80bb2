import Foundation
import GallerySync

/// Counters and histograms for `/metrics`, in Prometheus' text format.
public final class ServeMetrics: Sendable {
    /// Latency buckets' upper bounds in seconds.
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var byStatus: [Int: Int] = [:]
        var latency = [Int](repeating: 0, count: ServeMetrics.bounds.count + 1)
        var latencySum = 0.0
        var decode = [Int](repeating: 0, count: ServeMetrics.bounds.count + 1)
        var decodeSum = 0.0
        var hits = 0, misses = 0, revalidations = 0
        var bytesOut: Int64 = 0
    }
    private let state = Locked(State())

    func request(status: Int, seconds: Double, bytes: Int) {
        state.withLock {
            $0.byStatus[status, default: 0] += 1
            $0.latency[Self.bucket(seconds)] += 1
            $0.latencySum += seconds
            $0.bytesOut += Int64(bytes)
        }
    }

    func decoded(seconds: Double) {
        state.withLock {
            $0.decode[Self.bucket(seconds)] += 1
            $0.decodeSum += seconds
        }
    }

    func cache(hit: Bool) { state.withLock { hit ? ($0.hits += 1) : ($0.misses += 1) } }
    func revalidation() { state.withLock { $0.revalidations += 1 } }

    /// Requests answered with `status` so far.
    public func count(status: Int) -> Int { state.withLock { $0.byStatus[status] ?? 0 } }
    /// Result-cache hits and misses so far.
    public var cacheCounts: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    private static func bucket(_ seconds: Double) -> Int { bounds.firstIndex { seconds <= $0 } ?? bounds.count }

    /// The exposition text; `extra` adds gauges and counters from the pipeline and caches.
    func text(extra: [(name: String, help: String, type: String, value: Double)]) -> String {
        let s = state.withLock { $0 }
        var out = "# HELP serve_requests_total Requests answered, by HTTP status.\n# TYPE serve_requests_total counter\n"
        for (status, count) in s.byStatus.sorted(by: { $0.key < $1.key }) { out += "serve_requests_total{status=\"\(status)\"} \(count)\n" }
        out += histogram("serve_request_duration_seconds", "Time to answer a request.", s.latency, s.latencySum)
        out += histogram("serve_decode_duration_seconds", "Time to fetch, decode and scale a source on a result-cache miss.", s.decode, s.decodeSum)
        let counters: [(String, String, Double)] = [
            ("serve_result_cache_hits_total", "Answers from the result cache.", Double(s.hits)),
            ("serve_result_cache_misses_total", "Answers rendered.", Double(s.misses)),
            ("serve_revalidations_total", "Conditional requests sent to sources after the TTL.", Double(s.revalidations)),
            ("serve_bytes_out_total", "Response body bytes sent.", Double(s.bytesOut)),
        ]
        for (name, help, value) in counters { out += "# HELP \(name) \(help)\n# TYPE \(name) counter\n\(name) \(Self.number(value))\n" }
        for item in extra { out += "# HELP \(item.name) \(item.help)\n# TYPE \(item.name) \(item.type)\n\(item.name) \(Self.number(item.value))\n" }
        return out
    }

    private func histogram(_ name: String, _ help: String, _ counts: [Int], _ sum: Double) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        var cumulative = 0
        for (index, bound) in Self.bounds.enumerated() {
            cumulative += counts[index]
            out += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += counts[Self.bounds.count]
        return out + "\(name)_bucket{le=\"+Inf\"} \(cumulative)\n\(name)_sum \(sum)\n\(name)_count \(cumulative)\n"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
