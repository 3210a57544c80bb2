import Foundation
import GallerySync
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The engine resolving through its own resolver against a scripted DNS server on 127.0.0.1: one question
/// per name and type however many URLs name it, negative answers kept, failures told by class, redirects
/// to names only that server knows, link-local addresses refused.
@Suite struct ResolverEngineTests {
    static func engine(_ dns: TestDNSServer, _ edit: (inout TransferConfiguration) -> Void = { _ in }) throws -> (TransferEngine, ForwardingResolver) {
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!])
        let engine = Kit.engine {
            $0.resolver = resolver
            edit(&$0)
        }
        return (engine, resolver)
    }

    static func failure(_ engine: TransferEngine, _ url: String) async -> TransferError? {
        do {
            _ = try await engine.request(url).validate().data()
            return nil
        } catch {
            return error
        }
    }

    @Test func aHostIsAskedOnceAcrossManyURLs() async throws {
        let server = try FaultServer()
        server.routeUnmatched { _, _ in .file(Kit.jpeg(2000)) }
        let dns = try TestDNSServer()
        dns.set("photos.test", .address(v4: ["127.0.0.1"], ttl: 1))
        let (engine, _) = try Self.engine(dns)
        let bodies = try await Kit.offPool {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<40 {
                    group.addTask { try await engine.request("http://photos.test:\(server.port)/\(i).jpg").validate().data().count }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(bodies.count == 40 && bodies.allSatisfy { $0 == 2000 })
        // A TTL of 1 s is kept 5 minutes (the batch floor), and 40 concurrent lookups share one question.
        #expect(dns.questions("photos.test", .a) == 1)
        #expect(dns.questions("photos.test", .aaaa) == 1)
        #expect(server.allRequests.count == 40)
    }

    @Test func negativeAnswersAreCachedAndToldByClass() async throws {
        let dns = try TestDNSServer()
        dns.set("gone.test", .nameError(negativeTTL: 60))
        dns.set("broken.test", .serverFailure)
        dns.set("refusing.test", .refused)
        dns.set("v6less.test", .address(v4: [], v6: []))
        let (engine, _) = try Self.engine(dns)
        for _ in 0..<5 {
            let gone = await Self.failure(engine, "http://gone.test:1/a.jpg")
            #expect(gone?.reason == .nameResolution(ResolveFailure(.nameNotFound, host: "gone.test", resolver: dns.address)))
            let broken = await Self.failure(engine, "http://broken.test:1/a.jpg")
            #expect(broken?.reason == .nameResolution(ResolveFailure(.serverFailure(code: 2), host: "broken.test", resolver: dns.address)))
        }
        let refused = await Self.failure(engine, "http://refusing.test:1/a.jpg")
        #expect(refused?.reason == .nameResolution(ResolveFailure(.serverFailure(code: 5), host: "refusing.test", resolver: dns.address)))
        let empty = await Self.failure(engine, "http://v6less.test:1/a.jpg")
        #expect(empty?.reason == .nameResolution(ResolveFailure(.noAddress, host: "v6less.test", resolver: dns.address)))
        #expect(dns.questions("gone.test", .a) == 1 && dns.questions("gone.test", .aaaa) == 1)
        #expect(dns.questions("broken.test", .a) == 1, "a SERVFAIL is kept for a while too")
        #expect(gone(description: await Self.failure(engine, "http://gone.test:1/b.jpg")))
    }

    private func gone(description error: TransferError?) -> Bool {
        error?.description.contains("DNS: gone.test does not exist (NXDOMAIN from 127.0.0.1:") == true
    }

    @Test func aDeadResolverFailsWithTheDNSClassInSecondsAndProbeNamesIt() async throws {
        let dns = try TestDNSServer()  // answers nothing and keeps its port for the next test's server
        defer { dns.stop() }
        dns.answersPerSecond = 0
        let address = dns.address
        var pacing = DNSPacing()
        pacing.tryTimeouts = [0.5, 1, 1]
        let resolver = try ForwardingResolver(servers: [DNSServer(address)!], pacing: pacing)
        let engine = Kit.engine { $0.resolver = resolver }
        let start = Date()
        let error = await Self.failure(engine, "http://photos.test:1/a.jpg")
        #expect(error?.reason == .nameResolution(ResolveFailure(.timedOut, host: "photos.test", resolver: address)))
        #expect(Date().timeIntervalSince(start) < 10, "3 tries of 0.5 + 1 + 1 s, not a hang")
        #expect(error?.attempts == 1, "the resolver already tried: no engine retry")
        await #expect(throws: DNSSetupError.self) { _ = try await resolver.probe() }
        do { _ = try await resolver.probe() } catch {
            #expect(error.description.contains("the DNS resolver \(address) did not answer"))
        }
    }

    @Test func aResolverThatNeverAnsweredIsReportedOnceWhileOneThatAnswersIsNot() async throws {
        let dead = try TestDNSServer()  // answers nothing and keeps its port for the next test's server
        defer { dead.stop() }
        dead.answersPerSecond = 0
        let address = dead.address
        var pacing = DNSPacing()
        pacing.tryTimeouts = [0.3, 0.3, 0.3]
        let reports = Locked<[String]>([])
        let resolver = try ForwardingResolver(servers: [DNSServer(address)!], pacing: pacing,
                                              onUnreachable: { error in reports.withLock { $0.append(error.description) } })
        for name in ["a.test", "b.test"] { _ = await resolver.resolve(name) }
        try await Task.sleep(nanoseconds: 4_500_000_000)  // the probe: 3 tries of 1 s
        #expect(reports.withLock { $0 } == ["the DNS resolver \(address) did not answer (3 tries in 3 s): check --dns-server or /etc/resolv.conf"])

        let alive = try TestDNSServer()
        alive.set("slow.test", .silent)
        let quiet = Locked<[String]>([])
        let answering = try ForwardingResolver(servers: [DNSServer(alive.address)!], pacing: pacing,
                                               onUnreachable: { error in quiet.withLock { $0.append(error.description) } })
        _ = await answering.resolve("slow.test")  // silent name, but the server answers the probe
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(quiet.withLock { $0 }.isEmpty)
    }

    @Test func aRedirectToANameOnlyTheTestResolverKnowsIsFollowed() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(5000)
        server.route("/a.jpg") { _, _ in .file(body) }
        server.route("/start") { _, _ in .redirect(to: "http://hidden.test:\(server.port)/hop") }
        server.route("/hop") { _, _ in .redirect(to: "/a.jpg", status: 301) }
        server.route("/loop") { _, _ in .redirect(to: "http://hidden.test:\(server.port)/loop") }
        let dns = try TestDNSServer()
        dns.set("hidden.test", .alias("cdn.hidden.test", ttl: 60))
        dns.set("cdn.hidden.test", .address(v4: ["127.0.0.1"], ttl: 60))
        let (engine, _) = try Self.engine(dns) { $0.maxRedirects = 3 }
        let response = try await engine.request(server.url("/start")).validate().response()
        #expect(response.body == body)
        #expect(dns.questions("hidden.test", .a) == 1, "the redirect's host went through our resolver")
        let loop = await Self.failure(engine, server.url("/loop"))
        #expect(loop?.reason == .tooManyRedirects(limit: 3))
        // Without the resolver, libcurl's getaddrinfo cannot find the name.
        let plain = Kit.engine()
        let error = await Self.failure(plain, server.url("/start"))
        #expect(error?.reason == .connectionFailed)
    }

    @Test func aRedirectToASchemeOtherThanHTTPIsRefused() async throws {
        let server = try FaultServer()
        server.route("/start") { _, _ in .redirect(to: "file:///etc/passwd") }
        let dns = try TestDNSServer()
        let (engine, _) = try Self.engine(dns)
        let error = await Self.failure(engine, server.url("/start"))
        #expect(error?.reason == .redirectRefused)
    }

    @Test func linkLocalAddressesAreRefusedByNameAndByLiteral() async throws {
        let dns = try TestDNSServer()
        dns.set("metadata.test", .address(v4: ["169.254.169.254"], ttl: 60))
        dns.set("metadata6.test", .address(v4: [], v6: ["fd00:ec2::254"], ttl: 60))
        let (engine, _) = try Self.engine(dns) { $0.connectTimeout = 1 }
        for url in ["http://metadata.test/latest/meta-data/", "http://169.254.169.254/latest/meta-data/",
                    "http://metadata6.test/latest/meta-data/"] {
            let error = await Self.failure(engine, url)
            guard case .addressRefused(let refusal)? = error?.reason else {
                Issue.record("\(url): expected a refusal, got \(String(describing: error))")
                continue
            }
            #expect(refusal.addressClass == .linkLocal)
            #expect(refusal.why.contains("--allow-private-addresses lifts this"))
        }
    }

    @Test func anIPv6AddressThatDoesNotAnswerFallsBackToIPv4() async throws {
        let server = try FaultServer()  // listens on 127.0.0.1 only: ::1 refuses (or is absent)
        server.route("/a.jpg") { _, _ in .file(Kit.jpeg(3000)) }
        let dns = try TestDNSServer()
        dns.set("dual.test", .address(v4: ["127.0.0.1"], v6: ["::1"], ttl: 60))
        let (engine, _) = try Self.engine(dns)
        let response = try await engine.request("http://dual.test:\(server.port)/a.jpg").validate().response()
        #expect(response.body.count == 3000)
        #expect(response.metrics.lastAttempt.primaryIP == "127.0.0.1")
        #expect(response.metrics.attempts == 1, "the fallback happened within the attempt")
    }

    @Test func aTruncatedAnswerIsAskedAgainOverTCP() async throws {
        let dns = try TestDNSServer()
        dns.set("big.test", .truncatedOverUDP(then: .address(v4: ["127.0.0.9", "127.0.0.10"], ttl: 60)))
        let (_, resolver) = try Self.engine(dns)
        let found = try await resolver.resolve("big.test").get()
        #expect(found.ipv4 == ["127.0.0.9", "127.0.0.10"])
        #expect(dns.questions("big.test", .a) == 1 && dns.tcpQuestions == 2, "A and AAAA once each over UDP, then TCP")
    }

    @Test func aCNAMEChainEndsAtItsAddressesWithTheSmallestTTL() async throws {
        let dns = try TestDNSServer()
        dns.set("a.test", .alias("b.test", ttl: 900))
        dns.set("b.test", .alias("c.test", ttl: 700))
        dns.set("c.test", .address(v4: ["127.0.0.7", "127.0.0.8"], v6: ["::1"], ttl: 800))
        let (_, resolver) = try Self.engine(dns)
        let found = try await resolver.resolve("A.test.").get()
        #expect(found == ResolvedHost(ipv4: ["127.0.0.7", "127.0.0.8"], ipv6: ["::1"]))
        #expect(found.curlResolveEntry(host: "a.test", port: 80) == "a.test:80:[::1],127.0.0.7,127.0.0.8")
    }
}
