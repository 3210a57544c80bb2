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
}
