import Foundation
import GallerySync
import GallerySystem

/// `--dns recursive`: full recursion from the root servers inside the process, with libunbound 1.17
/// (Debian 12's libunbound8), behind the same cache and coalescing as ``ForwardingResolver``. It needs
/// no resolver on the machine and no privileges: the only DNS traffic is to the authorities themselves.
///
/// Why libunbound and not c-ares: c-ares 1.18 is a stub resolver (it forwards to a recursive resolver
/// and cannot recurse), while recursion done right is a large protocol (referrals and glue, lame and
/// slow authorities, bailiwick checks against poisoning, EDNS and TCP fallbacks, randomised source
/// ports and IDs, its own infrastructure cache); libunbound is the recursion of the Unbound server, so
/// none of that is ours to get wrong. Our cache stays on top, so a name is still asked once per type
/// and TTL however many URLs name it; libunbound's caches hold the delegations (bounded by its
/// defaults, 4 MB of messages and 4 MB of record sets).
public final class RecursiveResolver: NameResolver {
    /// The root hints file, or nil for libunbound's built-in root servers.
    public let rootHints: String?
    public let lookupTimeout: Double
    /// Seconds before a name libunbound failed (SERVFAIL) is asked once more.
    public let serverFailureRetryDelay: Double
    private let context: UnboundContext
    private let answers: DNSAnswers
    private let asked = Locked(0)
    /// Questions inside libunbound at once. Past its `num-queries-per-thread` (1,024) it "jostles" running
    /// questions out with SERVFAIL: a list of thousands of new names asked at once lost 1.3% of the names that
    /// resolve that way in Scripts/bench-web.
    private let slots: AsyncPermits

    /// A resolver recursing from `rootHints`' servers (a zone-file list of the roots' NS and addresses, as
    /// `named.root`), or from the real root servers when nil. A lookup that libunbound has not finished
    /// in `lookupTimeout` seconds ends as a timeout.
    public init(rootHints: String? = nil, policy: DNSCachePolicy = DNSCachePolicy(), lookupTimeout: Double = 10,
                maxInFlight: Int = 128, serverFailureRetryDelay: Double = 1) throws(DNSSetupError) {
        self.rootHints = rootHints
        self.serverFailureRetryDelay = serverFailureRetryDelay
        slots = AsyncPermits(maxInFlight)
        self.lookupTimeout = lookupTimeout
        // Room for the questions libunbound asks on its own behalf (delegations, name servers' addresses)
        // beside ours, so none is jostled out with SERVFAIL.
        var options: [(String, String)] = [("num-queries-per-thread:", "4096")]
        if let rootHints {
            guard Syscall.isReadable(rootHints) else {
                throw DNSSetupError("cannot read the root hints file \(rootHints)")
            }
            options.append(("root-hints:", rootHints))
            // Private roots (tests, an isolated network) may live on loopback; the real ones never do.
            options.append(("do-not-query-localhost:", "no"))
        }
        context = try UnboundContext(options: options)
        answers = DNSAnswers(policy: policy)
    }

    /// How failures name this resolver: "recursion from the root servers of FILE".
    public var label: String { "recursion from the root servers" + (rootHints.map { " of " + $0 } ?? "") }

    /// Questions handed to libunbound (each name and type once per TTL) and names and types cached.
    public var statistics: (questions: Int, cached: Int) { (asked.withLock { $0 }, answers.count) }

    public func resolve(_ host: String) async -> Result<ResolvedHost, ResolveFailure> {
        await DNSAnswers.resolve(host, resolver: label, answers: answers) { name, type in await self.outcome(name, type) }
    }

    func outcome(_ name: String, _ type: DNSMessage.RecordType) async -> DNSOutcome {
        await answers.outcome(name, type) { [self] in
            var answer = await ask(name, type)
            switch answer.0 {
            case .timedOut:
                // A second try finds the delegations the first one cached (a busy start, a slow authority).
                answer = await ask(name, type)
            case .serverFailure:
                // A SERVFAIL of libunbound's own may be passing: early in Scripts/bench-web's list, names
                // that resolve failed so, 24-44 rows over 6-11 names in a row, and none when asked once more
                // a second later, before the failure is cached. (An authority's own SERVFAIL libunbound keeps
                // for a few seconds: a name whose authority is truly broken fails again at once.)
                try? await Task.sleep(for: .seconds(serverFailureRetryDelay))
                answer = await ask(name, type)
            default:
                break
            }
            return answer
        }
    }

    /// One question to libunbound, in one of the slots.
    private func ask(_ name: String, _ type: DNSMessage.RecordType) async -> (DNSOutcome, UInt32) {
        _ = await slots.acquire()
        asked.withLock { $0 += 1 }
        let answer = await context.lookup(name, rrtype: Int32(type.rawValue), timeout: lookupTimeout)
        await slots.release()
        return answer
    }

    /// Asks for the root zone's servers: an answer shows recursion can start. Throws naming the hints
    /// when none came (no route to the roots, a wrong hints file).
    public func probe() async throws(DNSSetupError) {
        let (outcome, _) = await context.lookup(".", rrtype: 2, timeout: min(lookupTimeout, 10))
        switch outcome {
        case .addresses, .noData: return
        case .nameError, .serverFailure, .timedOut:
            throw DNSSetupError("\(label) failed: no root server answered the question for the root zone's servers")
        }
    }
}
