import GallerySync

/// Each origin's robots.txt and tdmrep.json, fetched once per run through the run's own engine (so the
/// same per-host limits and rate), shared by every worker, kept at most 24 hours (RFC 9309 §2.4).
///
/// - robots.txt: a 2xx is parsed (its first 500 KiB: asked for with a Range, since a server may send
///   more); a 4xx allows everything; a 5xx, a redirect loop or no answer disallows everything
///   (RFC 9309 §2.3.1). Redirects are followed by the engine.
/// - A host whose name does not resolve, or whose address is refused, gets no verdict (nothing disallowed,
///   nothing kept): the image's own request then fails for that reason, and a later URL asks again.
/// - tdmrep.json: a 2xx that reads as rules is used; anything else (404, not JSON) is "no rules", and a
///   file that is not JSON is recorded for the run's report.
/// Callers for an origin whose files are being fetched wait for that one fetch. A finished fetch is kept as
/// its value, not as its task: a finished task still holds the memory its awaits used (about 37 KB an origin
/// here, 185 MB over 5,000 hosts), which the cache would keep for every origin of the run. At most
/// `capacity` origins are kept (100,000 by default, a few hundred bytes each), the longest kept going first:
/// an origin seen again after that has its files asked for again.
public final class OriginConsentCache: Sendable {
    private enum Entry {
        case fetching(Task<OriginConsent, Never>)
        case known(OriginConsent)
    }

    let engine: TransferEngine
    let wantsRobots: Bool
    let wantsTDMRep: Bool
    let maxAge: Duration
    let clock = ContinuousClock()
    /// The origins kept, the one fetched longest ago dropped first: a lookup (`peek`) leaves the order
    /// as it is, and an origin fetched again becomes the newest.
    private let entries: Locked<LRUTable<String, (entry: Entry, at: ContinuousClock.Instant)>>
    let capacity: Int
    private let counts = Locked<(robots: Int, tdmrep: Int, unreadable: [String])>((0, 0, []))

    /// The bytes of a robots.txt asked for (RFC 9309 asks for at least 500 KiB to be parsed) and the
    /// most accepted from a server that ignores the Range.
    static let robotsRange = RobotsTxt.parsedLimit
    static let maxBody: Int64 = 16 << 20

    public init(engine: TransferEngine, policy: OptOutPolicy, maxAge: Duration = .seconds(24 * 3600),
                capacity: Int = 100_000) {
        self.engine = engine
        self.capacity = max(1, capacity)
        entries = Locked(LRUTable(countLimit: self.capacity))
        wantsRobots = !policy.ignored.isSuperset(of: [.robotsTxt, .contentSignal, .contentUsage])
        wantsTDMRep = !policy.ignored.contains(.tdmRep)
        self.maxAge = maxAge
    }

    /// The requests made so far: robots.txt and tdmrep.json (one each per origin and 24 hours).
    public var requestCounts: (robots: Int, tdmrep: Int) { counts.withLock { ($0.robots, $0.tdmrep) } }
    /// Origins whose files are being fetched now (the rest are kept as values).
    var fetchingCount: Int {
        entries.withLock { kept in kept.filter { if case .fetching = $0.value.entry { true } else { false } }.count }
    }
    /// The tdmrep.json files that could not be read, with why (`http://host/.well-known/tdmrep.json: not JSON`).
    public var unreadableFiles: [String] { counts.withLock { $0.unreadable } }

    /// The origin's files for `url` (fetched now if this run has not yet, or not in 24 hours).
    public func consent(for url: String) async -> OriginConsent {
        guard let (origin, _) = Self.split(url) else { return OriginConsent() }
        let now = clock.now
        let found: Entry = entries.withLock { kept in
            if let (entry, at) = kept.peek(origin), at.duration(to: now) < maxAge { return entry }
            let task = Task { await self.fetch(origin) }
            kept.setValue((.fetching(task), now), forKey: origin)
            return .fetching(task)
        }
        let task: Task<OriginConsent, Never>
        switch found {
        case .known(let consent): return consent
        case .fetching(let running): task = running
        }
        let consent = await task.value
        entries.withLock { kept in
            guard let (entry, at) = kept.peek(origin), case .fetching(let current) = entry, current == task else { return }
            // Not kept when nothing was asked (a name that did not resolve): a later URL asks again.
            if consent.notAsked == nil { kept.setValue((.known(consent), at), forKey: origin) }
            else { kept.removeValue(forKey: origin) }
        }
        return consent
    }

    func fetch(_ origin: String) async -> OriginConsent {
        var consent = OriginConsent()
        if wantsRobots {
            counts.withLock { $0.robots += 1 }
            var request = HTTPRequest(url: origin + "/robots.txt")
            request.headers.add("Range", "bytes=0-\(Self.robotsRange - 1)")
            do {
                let response = try await engine.request(request).maximumBodySize(Self.maxBody).response()
                switch response.status {
                case 200..<300: consent.robots = RobotsTxt(parsing: response.body)
                case 400..<500: consent.robots = .allowAll
                default: consent.robots = .disallowAll
                }
            } catch {
                // A name that did not resolve, or an address we refuse, is not an unreachable robots.txt
                // (RFC 9309's full disallow): the image's own request fails for that reason, and the files
                // are asked for again later.
                switch error.reason {
                case .nameResolution, .addressRefused:
                    consent.notAsked = error.reasonText
                    return consent
                default: break
                }
                consent.robots = .disallowAll
            }
        }
        if wantsTDMRep {
            let host = Self.host(origin)
            if TransferEngine.needsResolving(host), case .failure(let failure)? = await engine.configuration.resolver?.resolve(host) {
                consent.notAsked = failure.description
                return consent
            }
            counts.withLock { $0.tdmrep += 1 }
            let url = origin + "/.well-known/tdmrep.json"
            if let response = try? await engine.request(HTTPRequest(url: url)).maximumBodySize(1 << 20).response(),
               (200..<300).contains(response.status) {
                do { consent.tdmrep = try TDMRep(parsing: response.body) }
                catch { counts.withLock { $0.unreadable.append("\(url): \(error.reason)") } }
            }
        }
        return consent
    }

    /// The host of an origin (`http://a.example:8080` -> `a.example`).
    static func host(_ origin: String) -> String {
        guard let parts = URLParts(origin + "/"), let (host, _) = TransferEngine.hostAndPort(parts) else { return origin }
        return host
    }

    /// `scheme://host[:port]` and the path with its query (`/` when empty), or nil for a URL without both.
    public static func split(_ url: String) -> (origin: String, path: String)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty else { return nil }
        var path = String(rest[authorityEnd...].prefix { $0 != "#" })
        if !path.hasPrefix("/") { path = "/" + path }
        return (url[..<schemeEnd.lowerBound].lowercased() + "://" + authority.lowercased(), path)
    }
}
