import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// `--dns recursive`: libunbound recursing from private roots (nsd serving a root, `zz` and `web.zz` on
/// loopback), never the real ones.
@Suite struct RecursiveResolverTests {
    @Test func resolvesThroughTheTreeAndAsksEachNameOncePerType() async throws {
        let tree = try DNSHierarchy(["a": .a("127.0.0.1"), "alias": .cname("a.web.zz."), "six": .aaaa("::1"),
                                     "both": .a("127.0.0.2")])
        let resolver = try RecursiveResolver(rootHints: tree.hintsPath)
        try await resolver.probe()
        #expect(try await resolver.resolve("a.web.zz").get() == ResolvedHost(ipv4: ["127.0.0.1"], ipv6: []))
        #expect(try await resolver.resolve("ALIAS.web.zz.").get() == ResolvedHost(ipv4: ["127.0.0.1"], ipv6: []))
        #expect(try await resolver.resolve("six.web.zz").get() == ResolvedHost(ipv4: [], ipv6: ["::1"]))
        guard case .failure(let missing) = await resolver.resolve("nothing.web.zz") else {
            Issue.record("a missing name resolved")
            return
        }
        #expect(missing.kind == .nameNotFound && missing.description.contains("NXDOMAIN from recursion from the root servers of"),
                "\(missing)")
        let before = resolver.statistics.questions
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 { group.addTask { _ = await resolver.resolve("both.web.zz") } }
        }
        #expect(resolver.statistics.questions - before == 2, "40 lookups of one name asked \(resolver.statistics.questions - before) questions")
        _ = await resolver.resolve("a.web.zz")
        #expect(resolver.statistics.questions - before == 2, "a cached name was asked again")
    }

    /// Hints naming a server that does not answer: the check before any download fails in seconds, naming the file.
    @Test func deadRootsFailTheCheckNamingTheHints() async throws {
        let dir = try TempDirectory(prefix: "dns-hints")
        defer { dir.remove() }
        let hints = try dir.write(Array(". 3600000 NS A.ROOT.\nA.ROOT. 3600000 A 127.0.53.254\n".utf8), to: "dead.hints")
        let resolver = try RecursiveResolver(rootHints: hints, lookupTimeout: 3)
        let start = ContinuousClock.now
        await #expect(throws: DNSSetupError.self) { try await resolver.probe() }
        #expect(ContinuousClock.now - start < .seconds(6))
        #expect(throws: DNSSetupError.self) { try RecursiveResolver(rootHints: dir.file("missing.hints")) }
    }

    /// The zone's own server is down: its names fail as DNS failures (not hangs), within two tries of the lookup timeout.
    @Test func aDeadAuthorityIsADNSFailureOnTime() async throws {
        let tree = try DNSHierarchy(["a": .a("127.0.0.1")], zoneServerUp: false)
        let resolver = try RecursiveResolver(rootHints: tree.hintsPath, lookupTimeout: 2)
        try await resolver.probe()
        let start = ContinuousClock.now
        guard case .failure(let failure) = await resolver.resolve("a.web.zz") else {
            Issue.record("a name under a dead authority resolved")
            return
        }
        #expect(ContinuousClock.now - start < .seconds(9), "2 tries of 2 s, not libunbound's own minutes")
        #expect(failure.isTemporary, "\(failure)")
    }

    /// A SERVFAIL of the moment is asked again before it is cached; one that stays is a DNS failure, cached.
    @Test func aPassingServerFailureIsAskedAgainAndAStayingOneFails() async throws {
        // The zone flaky.web.zz on a scripted server of its own: SERVFAIL for x until half a second after
        // the first question, then its address; y always SERVFAIL. libunbound keeps an authority's SERVFAIL
        // for a few seconds (asked again after 1 s, x failed), so the retry waits 6 s here; the default
        // second is for libunbound's own passing failures (Scripts/bench-web --only-recursive: 24-44 rows
        // over 6-11 names lost without the retry, none with it).
        let address = "127.\(Int.random(in: 100...199)).\(Int.random(in: 0...255)).9"
        let flaky = try TestDNSServer(host: address, port: 53)
        flaky.set("x.flaky.web.zz", .serverFailure)
        flaky.set("y.flaky.web.zz", .serverFailure)
        let tree = try DNSHierarchy(["a": .a("127.0.0.1"), "flaky": .delegation(address)])
        let resolver = try RecursiveResolver(rootHints: tree.hintsPath, lookupTimeout: 3, serverFailureRetryDelay: 6)
        try await resolver.probe()
        let healed = Task {
            while flaky.totalQuestions == 0 { try? await Task.sleep(for: .milliseconds(10)) }
            try? await Task.sleep(for: .milliseconds(500))
            flaky.set("x.flaky.web.zz", .address(v4: ["127.0.0.7"], ttl: 300))
        }
        let start = ContinuousClock.now
        let x = await resolver.resolve("x.flaky.web.zz")
        await healed.value
        #expect((try? x.get()) == ResolvedHost(ipv4: ["127.0.0.7"], ipv6: []), "\(x)")
        #expect(ContinuousClock.now - start >= .seconds(1), "resolved before the retry: the SERVFAIL never came")
        guard case .failure(let failure) = await resolver.resolve("y.flaky.web.zz") else {
            Issue.record("a name whose authority always fails resolved")
            return
        }
        #expect(failure.isTemporary, "\(failure)")
        let asked = resolver.statistics.questions
        _ = await resolver.resolve("y.flaky.web.zz")
        #expect(resolver.statistics.questions == asked, "the failure was not cached")
    }
}
