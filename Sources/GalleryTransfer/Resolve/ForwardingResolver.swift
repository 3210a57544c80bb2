import Foundation
import GallerySync

/// The default ``NameResolver``: a stub that forwards A and AAAA questions to the system's nameservers
/// (`/etc/resolv.conf`) or given ones, with a cache shared by every transfer of the process.
///
/// Why a small DNS client of our own rather than c-ares 1.18 or libunbound 1.17 (both in Debian 12): the
/// behaviour that matters here is the caching and pacing policy, and both libraries bring their own that
/// would sit under ours. c-ares retries and rotates on its own schedule and has no notion of a resolver
/// that drops past N questions a second; libunbound in forwarding mode keeps its own cache with its own
/// TTL rules and retries, so "one answered question per type per TTL, at most 3 tries" would not be ours
/// to keep. A stub needs little of the protocol (one question, A/AAAA/CNAME/SOA, ids, truncation), and
/// doing it in Swift keeps C out of the transfer layer and the resolver testable against a scripted
/// server. Full recursion from the root is another matter (a job for libunbound behind this protocol).
///
/// - Cache: a bounded LRU by (name, type) with ``DNSCachePolicy``; NXDOMAIN and "no data" kept too.
/// - Coalescing: concurrent lookups of one name and type wait for one question.
/// - Pacing: ``DNSExchange`` (bounded outstanding questions, AIMD rate, 3 tries).
public final class ForwardingResolver: NameResolver {
    public let servers: [DNSServer]
    public var policy: DNSCachePolicy { answers.policy }
    private let exchange: DNSExchange
    private let answers: DNSAnswers
    /// Whether any server answered yet, and whether silence before that was already checked.
    private let liveness = Locked<(answered: Bool, checking: Bool)>((false, false))
    private let onUnreachable: (@Sendable (DNSSetupError) -> Void)?

    /// A resolver forwarding to `servers` (the system's when nil).
    public init(servers: [DNSServer]? = nil, policy: DNSCachePolicy = DNSCachePolicy(), pacing: DNSPacing = DNSPacing(),
                onUnreachable: (@Sendable (DNSSetupError) -> Void)? = nil) throws(DNSSetupError) {
        self.onUnreachable = onUnreachable
        let chosen: [DNSServer]
        if let servers { chosen = servers } else { chosen = try DNSServer.system() }
        guard !chosen.isEmpty else { throw DNSSetupError("no DNS server given") }
        self.servers = chosen
        var limits = pacing
        limits.maxInFlight = max(1, pacing.maxInFlight)
        if limits.tryTimeouts.isEmpty { limits.tryTimeouts = [1] }
        exchange = try DNSExchange(servers: chosen, limits: limits)
        answers = DNSAnswers(policy: policy)
    }

    /// "127.0.0.53:53, 10.0.0.2:53"
    public var serverList: String { servers.map(\.description).joined(separator: ", ") }

    /// Questions sent (tries included), names and types cached, and how often the pace was halved.
    public var statistics: (questions: Int, cached: Int, rateDecreases: Int) {
        let sent = exchange.counters
        return (sent.sent, answers.count, sent.rateDecreases)
    }

    public func resolve(_ host: String) async -> Result<ResolvedHost, ResolveFailure> {
        await DNSAnswers.resolve(host, resolver: serverList, answers: answers) { name, type in await self.outcome(name, type) }
    }

    /// The cached outcome, the one being asked, or a new question.
    func outcome(_ name: String, _ type: DNSMessage.RecordType) async -> DNSOutcome {
        await answers.outcome(name, type) { [self] in
            let answer = await exchange.ask(name, type)
            noteLiveness(answer)
            return Self.interpret(answer, name: name, type: type)
        }
    }

    /// An answer's outcome and TTL: the addresses at the end of the CNAME chain (at most 16 links) with
    /// the smallest TTL along it; the SOA's TTL for a negative answer (RFC 2308 §5), 300 s without one.
    static func interpret(_ answer: DNSExchange.Answer, name: String, type: DNSMessage.RecordType) -> (DNSOutcome, UInt32) {
        guard case .message(let m) = answer else { return (.timedOut, 0) }
        let negativeTTL = m.authority.first { $0.type == DNSMessage.RecordType.soa.rawValue }
            .map { min($0.ttl, UInt32($0.data) ?? $0.ttl) } ?? 300
        switch m.rcode {
        case 0: break
        case 3: return (.nameError, negativeTTL)
        default: return (.serverFailure(Int(m.rcode)), 0)
        }
        var target = name
        var ttl = UInt32.max
        for _ in 0..<16 {
            guard let link = m.answers.first(where: { $0.name == target && $0.type == DNSMessage.RecordType.cname.rawValue })
            else { break }
            ttl = min(ttl, link.ttl)
            target = link.data
        }
        let records = m.answers.filter { $0.name == target && $0.type == type.rawValue && !$0.data.isEmpty }
        guard !records.isEmpty else { return (.noData, negativeTTL) }
        ttl = min(ttl, records.map(\.ttl).min() ?? 0)
        return (.addresses(records.map(\.data)), ttl)
    }

    /// A resolver that never answered anything is checked once with ``probe()`` when a question first goes
    /// unanswered; `onUnreachable` hears when it does not answer that either (a dead or mistyped resolver:
    /// the command stops with an error naming it rather than failing every row).
    private func noteLiveness(_ answer: DNSExchange.Answer) {
        let check: Bool = liveness.withLock { l in
            if case .message = answer { l.answered = true }
            guard !l.answered, !l.checking, onUnreachable != nil else { return false }
            l.checking = true
            return true
        }
        guard check, let onUnreachable else { return }
        Task {
            do throws(DNSSetupError) { _ = try await self.probe() } catch {
                if !liveness.withLock({ $0.answered }) { onUnreachable(error) }
            }
        }
    }

    /// Asks each server once (up to 3 tries of 1 s) about a name no resolver knows (`.invalid`, RFC 6761):
    /// any answer, NXDOMAIN included, shows it works. Throws naming the servers that never answered when
    /// none did; returns those that did not when some did.
    public func probe() async throws(DNSSetupError) -> [DNSServer] {
        var silent: [DNSServer] = []
        for server in servers {
            var once = DNSPacing()
            once.maxInFlight = 1
            once.tryTimeouts = [1, 1, 1]
            let alone = try DNSExchange(servers: [server], limits: once)
            if case .timedOut = await alone.ask("resolver-check.fetch-gallery.invalid", .a) { silent.append(server) }
        }
        if silent.count == servers.count {
            let list = silent.map(\.description).joined(separator: ", ")
            throw DNSSetupError("the DNS resolver \(list) did not answer (3 tries in 3 s): check --dns-server or /etc/resolv.conf")
        }
        return silent
    }
}
