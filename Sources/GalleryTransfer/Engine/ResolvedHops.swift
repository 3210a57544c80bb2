import CCurl
import Foundation

/// Transfers through the engine's ``NameResolver``: the host is resolved before libcurl starts, its
/// addresses handed over with `CURLOPT_RESOLVE` (both families: libcurl's happy eyeballs falls back
/// between them), and redirects are followed here, hop by hop, so a redirect to another host is resolved
/// by the same resolver and cache rather than by libcurl's getaddrinfo. What libcurl's own following
/// guarantees is kept: at most `maxRedirects` hops, http and https only, the address policy's origin rule
/// across hops (each hop's connections are checked against the class of the first hop's address), 303 (and
/// 301/302 after a POST) turning into a GET, and credentials not sent to another host.
extension TransferEngine {
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    func performResolved(_ first: AttemptSpec, resolver: any NameResolver, sink: BodySink, lane: Lane,
                         onProgress: (@Sendable (Int64, Int64?) -> Void)?) async -> AttemptOutcome {
        let started = Date()
        var spec = first
        spec.followRedirects = false
        spec.addressesFromResolver = true
        var hops = 0
        var origin: AddressClass?
        while true {
            guard let parts = URLParts(spec.url), let (host, port) = Self.hostAndPort(parts) else {
                return Self.failed(.invalidURL, spec.url)
            }
            if Self.needsResolving(host) {
                switch await resolver.resolve(host) {
                case .failure(let failure): return Self.failed(.nameResolution(failure), spec.url)
                case .success(let found): spec.resolveEntries = [found.curlResolveEntry(host: host, port: port)]
                }
            } else {
                spec.resolveEntries = []
            }
            if Task.isCancelled { return Self.failed(.cancelled, spec.url) }
            var hop = spec
            let left = first.timeoutMilliseconds - Int(Date().timeIntervalSince(started) * 1000)
            guard left > 0 else { return Self.failed(.timedOut, spec.url) }
            hop.timeoutMilliseconds = left
            hop.connectTimeoutMilliseconds = min(first.connectTimeoutMilliseconds, left)
            var outcome = await performHop(hop, sink: sink, lane: lane, onProgress: onProgress)
            outcome.metrics.redirects = hops
            guard outcome.code == CURLE_OK, outcome.abortReason == nil, let head = outcome.head,
                  Self.redirectStatuses.contains(head.status), let location = head.headers["Location"] else {
                return outcome
            }
            hops += 1
            guard hops <= first.maxRedirects else {
                outcome.abortReason = .tooManyRedirects(limit: first.maxRedirects)
                return outcome
            }
            guard let next = URL(string: location, relativeTo: URL(string: spec.url))?.absoluteURL.absoluteString,
                  let nextParts = URLParts(next) else {
                outcome.abortReason = .invalidResponse("redirect to an unusable Location '\(location.prefix(200))'")
                return outcome
            }
            guard nextParts.scheme == "http" || nextParts.scheme == "https" else {
                outcome.abortReason = .redirectRefused
                return outcome
            }
            if origin == nil { origin = outcome.metrics.primaryIP.flatMap(IPAddress.init)?.addressClass }
            spec.redirectOrigin = origin ?? .publicInternet
            if head.status == 303 || ((head.status == 301 || head.status == 302) && spec.method == .post) {
                spec.method = spec.method == .head ? .head : .get
                spec.body = nil
            }
            if nextParts.authority != parts.authority || nextParts.scheme != parts.scheme {
                spec.headers.removeAll { ["authorization", "cookie"].contains($0.0.lowercased()) }
                spec.awsSignature = nil
            }
            spec.url = next
        }
    }

    /// The host (without brackets) and port of a URL's authority; the scheme's port when none is given.
    static func hostAndPort(_ parts: URLParts) -> (String, Int)? {
        var authority = Substring(parts.authority)
        var port = parts.scheme == "https" ? 443 : 80
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            if rest.hasPrefix(":"), let p = Int(rest.dropFirst()) { port = p }
            authority = authority[authority.index(after: authority.startIndex)..<close]
        } else if let colon = authority.lastIndex(of: ":") {
            let text = authority[authority.index(after: colon)...]
            if !text.isEmpty {
                guard let p = Int(text), (1...65535).contains(p) else { return nil }
                port = p
            }
            authority = authority[..<colon]
        }
        guard !authority.isEmpty else { return nil }
        return (String(authority), port)
    }

    /// IP literals and `localhost` (RFC 6761: never sent to DNS; libcurl answers it itself) are not resolved.
    static func needsResolving(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        return IPAddress(name) == nil && name != "localhost" && !name.hasSuffix(".localhost")
    }

    static func failed(_ reason: TransferError.Reason, _ url: String) -> AttemptOutcome {
        AttemptOutcome(code: CURLE_COULDNT_RESOLVE_HOST, curlMessage: nil, head: nil, abortReason: reason,
                       bodyBytes: 0, errorBody: [], effectiveURL: url, metrics: AttemptMetrics())
    }
}
