import Foundation
import GallerySync
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The resolver against a resolver that answers only N questions a second and drops the rest (as
/// systemd-resolved and ISP resolvers do), and the opt-out files of a host whose name does not resolve.
@Suite struct ResolverPacingTests {
    @Test func aRateLimitedResolverIsNotFloodedAndEveryNameResolves() async throws {
        let dns = try TestDNSServer()
        let names = (0..<150).map { "host\($0).test" }
        for name in names { dns.set(name, .address(v4: ["127.0.0.1"], ttl: 300)) }
        dns.answersPerSecond = 50
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!])
        let start = Date()
        let results = await Kit.offPool {
            await withTaskGroup(of: Bool.self) { group in
                for name in names { group.addTask { (try? await resolver.resolve(name).get()) != nil } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let asked = dns.totalQuestions
        let dropped = dns.dropped
        // A try unanswered past the answers' usual delay (a quarter second at least, here) counts as lost
        // for the pace at once, so the pace is cut within a fraction of a second of passing the limit, not a
        // try's timeout later: alone, every name resolved in 34 runs; beside the rest of the target, 1 name
        // failed in 1 run of 7. With only the timeout telling (the loss floor at 10 s), 1 name in 150 failed
        // in 4 runs of 10, and 58-61 questions were dropped (the bound below).
        let resolved = results.filter { $0 }.count
        #expect(resolved >= names.count - 1, "\(names.count - resolved) names unresolved (\(dropped) of \(asked) questions dropped)")
        for name in names {
            #expect(dns.questions(name, .a) <= 3 && dns.questions(name, .aaaa) <= 3, "\(name): at most 3 tries a type")
        }
        // 300 questions at 50 a second: the pace passes the limit once, by about a second's worth, while its
        // slow start doubles every quarter second, and then settles near it (measured: 72-73 dropped of
        // about 370, 3.0-4.2 s, in 3 runs; doubling every second, 13-22 of 167-322 in 26 runs, 3.2-7.3 s;
        // with no pacing, 64 questions outstanding, 266-278 of 552-564 were dropped and 5-9 names failed).
        #expect(dropped <= 100, "\(dropped) of \(asked) questions dropped in \(seconds) s")
        #expect(asked <= 380, "\(asked) questions for 300")
        #expect(resolver.statistics.rateDecreases >= 1, "the pace was cut when answers stopped coming")
    }

    @Test func aFewNamesThatNeverAnswerDoNotCutThePace() async throws {
        let dns = try TestDNSServer()
        // One name in 30 never answers (3%, as bench-web's web), spread evenly; the rest at once. The pace
        // is held at 80 questions a second, as a resolver's limit would hold it, without losses of its own.
        let names = (0..<300).map { "host\($0).test" }
        for (i, name) in names.enumerated() { dns.set(name, i % 30 == 7 ? .silent : .address(v4: ["127.0.0.1"], ttl: 300)) }
        var pacing = DNSPacing()
        pacing.maximumRate = 80
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!], pacing: pacing)
        let resolved = await Kit.offPool {
            await withTaskGroup(of: Bool.self) { group in
                for name in names { group.addTask { (try? await resolver.resolve(name).get()) != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(resolved == 290)
        // A silent name loses its A and its AAAA together: counted apart, one such name in a window of 40
        // questions cut the pace (once here in 3 runs of 3; 18 times over 1,250 names at 200 answers a second held the pace
        // near 50). Counted by name, and only beyond the share of names seen never answering, none.
        #expect(resolver.statistics.rateDecreases == 0, "the pace was cut \(resolver.statistics.rateDecreases) times")
    }

    @Test func namesTheResolverNeverAnswersDoNotHoldTheOthersBack() async throws {
        let dns = try TestDNSServer()
        let silent = (0..<4).map { "silent\($0).test" }, good = (0..<10).map { "good\($0).test" }
        for name in silent { dns.set(name, .silent) }
        for name in good { dns.set(name, .address(v4: ["127.0.0.1"], ttl: 300)) }
        var pacing = DNSPacing()
        pacing.maxInFlight = 4
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!], pacing: pacing)
        let ended = Locked<[String]>([])
        await Kit.offPool {
            await withTaskGroup(of: Void.self) { group in
                for name in silent {
                    group.addTask {
                        _ = await resolver.resolve(name)
                        ended.withLock { $0.append(name) }
                    }
                }
                try? await Task.sleep(for: .milliseconds(100))  // the silent names' questions go first
                for name in good {
                    group.addTask {
                        if case .success = await resolver.resolve(name) { ended.withLock { $0.append(name) } }
                    }
                }
            }
        }
        // The silent names' questions take all 4 places on their first try; once that try has timed out
        // (about a second), their later tries no longer count against the bound, so the other names are
        // asked and answered while the silent ones are still being tried (7 s in all). When every try
        // counted, the good names waited for the silent names' last tries to end.
        let order = ended.withLock { $0 }
        #expect(order.count == silent.count + good.count, "\(order)")
        let firstSilent = order.firstIndex { $0.hasPrefix("silent") } ?? order.count
        #expect(order.prefix(firstSilent).count == good.count, "good names ended after a silent one: \(order)")
    }

    @Test func aHostWhoseNameDoesNotResolveIsNotOptedOut() async throws {
        let dns = try TestDNSServer()
        dns.set("gone.test", .nameError(negativeTTL: 60))
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!])
        let engine = Kit.engine { $0.resolver = resolver }
        let gate = OptOutGate(policy: OptOutPolicy(tokens: ["fetch-gallery"]), engine: engine)
        // RFC 9309 makes an unreachable robots.txt a full disallow; a name that does not exist is not that:
        // the image's own request then fails with the DNS class.
        guard case .proceed = await gate.decide("http://gone.test/a.jpg") else {
            Issue.record("a host that does not resolve was recorded as opted out")
            return
        }
        do {
            _ = try await engine.request("http://gone.test/a.jpg").validate().data()
            Issue.record("fetched from a name that does not exist")
        } catch {
            #expect(error.reason == .nameResolution(ResolveFailure(.nameNotFound, host: "gone.test", resolver: dns.address)))
        }
        // Not kept as a verdict: the next URL of the origin asks again (the DNS answer itself is cached).
        _ = await gate.decide("http://gone.test/b.jpg")
        #expect(gate.origins.requestCounts.robots == 2)
        #expect(dns.questions("gone.test", .a) == 1)
    }
}
