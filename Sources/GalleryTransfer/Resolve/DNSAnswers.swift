import Foundation
import GallerySync

/// The part every resolver of the process shares whatever asks the questions: the bounded cache of
/// outcomes by (name, type) under a ``DNSCachePolicy``, and one question in flight per name and type
/// (concurrent lookups wait for it). ``ForwardingResolver`` and ``RecursiveResolver`` differ only in
/// how they ask.
final class DNSAnswers: Sendable {
    let policy: DNSCachePolicy
    private let state: Locked<(cache: DNSCache, flights: [DNSCache.Key: Task<DNSOutcome, Never>])>

    init(policy: DNSCachePolicy) {
        self.policy = policy
        state = Locked((DNSCache(capacity: policy.capacity), [:]))
    }

    /// Names and types cached now.
    var count: Int { state.withLock { $0.cache.count } }

    /// The cached outcome, the one being asked, or `ask`'s (an outcome and its TTL), which is then kept
    /// for the policy's time.
    func outcome(_ name: String, _ type: DNSMessage.RecordType,
                 ask: @escaping @Sendable () async -> (DNSOutcome, UInt32)) async -> DNSOutcome {
        let key = DNSCache.Key(name: name, type: type.rawValue)
        let now = DispatchTime.now().uptimeNanoseconds
        let (cached, flight): (DNSOutcome?, Task<DNSOutcome, Never>?) = state.withLock { s in
            if let cached = s.cache.lookup(key, now: now) { return (cached, nil) }
            if let running = s.flights[key] { return (nil, running) }
            let task = Task { [policy, state] in
                let (outcome, ttl) = await ask()
                let seconds = policy.seconds(for: outcome, ttl: ttl)
                state.withLock { s in
                    s.cache.store(key, outcome, seconds: seconds, now: DispatchTime.now().uptimeNanoseconds)
                    s.flights[key] = nil
                }
                return outcome
            }
            s.flights[key] = task
            return (nil, task)
        }
        if let cached { return cached }
        return await flight!.value
    }

    /// The outcome cached for `name` and `type` now, if any (no question is asked).
    func cached(_ name: String, _ type: DNSMessage.RecordType) -> DNSOutcome? {
        let key = DNSCache.Key(name: name, type: type.rawValue)
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { $0.cache.lookup(key, now: now) }
    }

    /// How long IPv4 addresses wait for the AAAA answer once they have come (RFC 8305 §3's resolution delay).
    static let resolutionDelay: Duration = .milliseconds(50)

    /// `host`'s addresses as both resolvers answer: the name lower-cased without its final dot and checked,
    /// then A and AAAA asked at once through `outcome` and combined. When A brings addresses first, AAAA gets
    /// ``resolutionDelay`` more and the host goes on with IPv4 alone if it is still unanswered (its answer is
    /// cached for later URLs when it comes): a resolver or authority slow on AAAA does not hold the download
    /// for AAAA's tries. An AAAA answer that comes first waits for A, so a host whose IPv6 does not work
    /// still has its IPv4 to fall back on. A name whose A and AAAA outcomes are both in `answers`' cache (every
    /// URL of a host after its first) is answered from there at once: no task, no timer.
    static func resolve(_ host: String, resolver: String, answers: DNSAnswers,
                        outcome: @escaping @Sendable (String, DNSMessage.RecordType) async -> DNSOutcome) async -> Result<ResolvedHost, ResolveFailure> {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard DNSMessage.isValidName(name) else { return .failure(ResolveFailure(.invalidName, host: host, resolver: resolver)) }
        let checked = name
        if let a = answers.cached(checked, .a), let aaaa = answers.cached(checked, .aaaa) {
            return combine(a, aaaa, host: host, resolver: resolver)
        }
        let v6 = Task { await outcome(checked, .aaaa) }
        let a = await outcome(checked, .a)
        guard case .addresses(let ipv4) = a else { return combine(a, await v6.value, host: host, resolver: resolver) }
        // AAAA already answered (a resolver that answers both at once): no race with a timer to set up.
        if let aaaa = answers.cached(checked, .aaaa) { return combine(a, aaaa, host: host, resolver: resolver) }
        guard let aaaa = await first(v6, orNilAfter: resolutionDelay) else { return .success(ResolvedHost(ipv4: ipv4, ipv6: [])) }
        return combine(a, aaaa, host: host, resolver: resolver)
    }

    /// `task`'s value if it comes within `delay`, else nil (the task goes on).
    static func first(_ task: Task<DNSOutcome, Never>, orNilAfter delay: Duration) async -> DNSOutcome? {
        await withHandOffContinuation { (continuation: HandOffContinuation<DNSOutcome?, Never>) in
            let answered = Locked(false)
            let finish: @Sendable (DNSOutcome?) -> Void = { value in
                guard answered.withLock({ was in defer { was = true }; return !was }) else { return }
                continuation.resume(returning: value)
            }
            Task { finish(await task.value) }
            Task { try? await Task.sleep(for: delay); finish(nil) }
        }
    }

    /// A name's result from its A and AAAA outcomes: the addresses of either, else the failure that says
    /// most (NXDOMAIN, then "no address", then the resolver's error code, then silence).
    static func combine(_ a: DNSOutcome, _ aaaa: DNSOutcome, host: String, resolver: String) -> Result<ResolvedHost, ResolveFailure> {
        var found = ResolvedHost(ipv4: [], ipv6: [])
        if case .addresses(let list) = a { found.ipv4 = list }
        if case .addresses(let list) = aaaa { found.ipv6 = list }
        if !found.isEmpty { return .success(found) }
        let kind: ResolveFailure.Kind
        switch (a, aaaa) {
        case (.nameError, _), (_, .nameError): kind = .nameNotFound
        case (.noData, .noData), (.addresses, .noData), (.noData, .addresses), (.addresses, .addresses): kind = .noAddress
        case (.serverFailure(let code), _), (_, .serverFailure(let code)): kind = .serverFailure(code: code)
        default: kind = .timedOut
        }
        return .failure(ResolveFailure(kind, host: host, resolver: resolver))
    }
}
