import Foundation
import Testing
@testable import GalleryTransfer

/// The resolver's parts without a server: the wire format on hostile input, the cache's bounds and
/// lifetimes, reading answers (CNAME chains, negative TTLs), and naming servers.
@Suite struct ResolverPartsTests {
    @Test func aMessageRoundTripsAndHostileOnesAreRefused() throws {
        let answer = DNSMessage(id: 0xBEEF, isResponse: true, questionName: "a.test", questionType: 1,
                                answers: [.init(name: "a.test", type: 5, ttl: 60, data: "b.test"),
                                          .init(name: "b.test", type: 1, ttl: 30, data: "192.0.2.7")],
                                authority: [.init(name: "test", type: 6, ttl: 100, data: "40")])
        let decoded = try #require(DNSMessage(decoding: answer.encoded()))
        #expect(decoded == answer)
        // A compression pointer pointing at itself must not loop.
        var looping = DNSMessage(id: 1, questionName: "x", questionType: 1).encoded()
        looping.replaceSubrange(12..<15, with: [0xC0, 12, 0])
        #expect(DNSMessage(decoding: looping) == nil)
        // Cut anywhere: nil, never a crash.
        let bytes = answer.encoded()
        for end in 0..<bytes.count - 1 { _ = DNSMessage(decoding: Array(bytes[0..<end])) }
        #expect(DNSMessage(decoding: Array(bytes.dropLast(3))) == nil)
    }

    @Test func answersAreReadAlongTheirCNAMEChainWithTheSmallestTTL() {
        let chain = DNSMessage(id: 1, isResponse: true, questionName: "a.test", questionType: 1,
                               answers: [.init(name: "a.test", type: 5, ttl: 45, data: "b.test"),
                                         .init(name: "b.test", type: 1, ttl: 90, data: "192.0.2.1"),
                                         .init(name: "other.test", type: 1, ttl: 90, data: "192.0.2.9")])
        let (outcome, ttl) = ForwardingResolver.interpret(.message(chain), name: "a.test", type: .a)
        #expect(outcome == .addresses(["192.0.2.1"]) && ttl == 45, "the alias's TTL bounds the answer's")
        let missing = DNSMessage(id: 1, isResponse: true, rcode: 3, questionName: "gone.test", questionType: 1,
                                 authority: [.init(name: "test", type: 6, ttl: 3600, data: "120")])
        let negative = ForwardingResolver.interpret(.message(missing), name: "gone.test", type: .a)
        #expect(negative.0 == .nameError && negative.1 == 120, "the SOA's minimum, RFC 2308")
        #expect(ForwardingResolver.interpret(.timedOut, name: "x.test", type: .a).0 == .timedOut)
        let policy = DNSCachePolicy()
        #expect(policy.seconds(for: .addresses(["192.0.2.1"]), ttl: 1) == 300)
        #expect(policy.seconds(for: .nameError, ttl: 10_000_000) == 86_400)
        #expect(policy.seconds(for: .serverFailure(2), ttl: 0) == 30)
        #expect(policy.seconds(for: .timedOut, ttl: 0) == 60)
    }

    @Test func theCacheKeepsItsBoundAndDropsTheLeastRecentlyUsed() {
        var cache = DNSCache(capacity: 8)
        let key = { (i: Int) in DNSCache.Key(name: "host\(i).test", type: 1) }
        for i in 0..<8 { cache.store(key(i), .addresses(["192.0.2.\(i)"]), seconds: 60, now: 1) }
        #expect(cache.lookup(key(0), now: 2) == .addresses(["192.0.2.0"]))
        cache.store(key(8), .nameError, seconds: 60, now: 3)
        #expect(cache.count == 8 && cache.evictions == 1)
        #expect(cache.lookup(key(1), now: 4) == nil, "the least recently used went")
        #expect(cache.lookup(key(0), now: 4) != nil, "a name used again stays")
        for i in 9..<1000 { cache.store(key(i), .noData, seconds: 60, now: 5) }
        #expect(cache.count <= 8)
        #expect(cache.lookup(key(999), now: 60_000_000_000) == .noData)
        #expect(cache.lookup(key(999), now: 61_000_000_006) == nil, "expired after its seconds")
    }

    @Test func aTryCountsAsLostOnceItIsLaterThanTheAnswersUsuallyAre() {
        var delay = AnswerDelay(floor: 0.25)
        #expect(delay.suspectAfter == nil, "before any answer only the try's timeout tells")
        for _ in 0..<50 { delay.answered(after: 0.001) }
        #expect(delay.suspectAfter == 0.25, "a resolver that answers in a millisecond: the floor")
        // Answers from an upstream that recurses: 100-900 ms, varied. RFC 6298 by hand for the first two:
        // 0.5 (deviation 0.25), then deviation 0.75 x 0.25 + 0.25 x |0.5 - 0.1| = 0.2875, mean 0.45.
        var slow = AnswerDelay(floor: 0.25)
        slow.answered(after: 0.5)
        slow.answered(after: 0.1)
        #expect(abs(slow.smoothed! - 0.45) < 1e-9 && abs(slow.deviation - 0.2875) < 1e-9)
        #expect(abs(slow.suspectAfter! - (0.45 + 4 * 0.2875)) < 1e-9)
        for i in 0..<200 { slow.answered(after: [0.1, 0.9, 0.5, 0.3][i % 4]) }
        #expect(slow.suspectAfter! > 0.9, "a varied delay waits past its slowest usual answers")
    }

    @Test func serversAreNamedByAddressAndPort() {
        #expect(DNSServer("127.0.0.53")?.description == "127.0.0.53:53")
        #expect(DNSServer("10.0.0.2:5353")?.description == "10.0.0.2:5353")
        #expect(DNSServer("[::1]:5353")?.description == "[::1]:5353")
        #expect(DNSServer("::1")?.description == "[::1]:53")
        for bad in ["dns.example", "127.0.0.1:0", "127.0.0.1:70000", "[::1", ""] { #expect(DNSServer(bad) == nil, "\(bad)") }
        let conf = "# comment\nsearch lan\nnameserver 127.0.0.53\nnameserver fe80::1%eth0\nnameserver  ::1\noptions edns0\n"
        #expect(DNSServer.parseResolvConf(conf).map(\.description) == ["127.0.0.53:53", "[::1]:53"])
        #expect(DNSMessage.isValidName("a-b.example") && !DNSMessage.isValidName("a..b") && !DNSMessage.isValidName(String(repeating: "a", count: 64)))
    }
}

/// libcurl's caches turned over every N origins: a host stays with its share while it is the current or the
/// previous one, and a retired share is freed once its last transfer ended.
@Suite struct CurlSharesTests {
    @Test func anOriginIsTheSchemeHostAndPort() {
        #expect(CurlShares.origin(of: "http://a.test:8080/x/y.jpg?q=1") == "http://a.test:8080")
        #expect(CurlShares.origin(of: "https://b.test?q") == "https://b.test")
        #expect(CurlShares.origin(of: "https://b.test") == "https://b.test")
        #expect(CurlShares.origin(of: "http://[::1]:80#f") == "http://[::1]:80")
    }

    @Test func aShareHoldsNOriginsAndIsFreedOnceRetiredAndItsLastTransferEnded() {
        var shares = CurlShares(originsPerShare: 2)
        let a1 = shares.take(for: "http://a.test/1.jpg"), b1 = shares.take(for: "http://b.test/1.jpg")
        let a2 = shares.take(for: "http://a.test/2.jpg")
        #expect(a1 == b1 && a2 == a1 && shares.made == 1, "two origins, one share")
        let c1 = shares.take(for: "http://c.test/1.jpg")
        #expect(c1 != a1 && shares.made == 2, "the third origin gets a fresh share")
        let b2 = shares.take(for: "http://b.test/2.jpg")
        #expect(b2 == a1, "an origin of the previous share stays there, with its connection")
        let b3 = shares.take(for: "http://b.test:8080/3.jpg")
        #expect(b3 == c1, "another port is another origin")
        for s in [a1, b1, a2, b2] { shares.release(s) }
        #expect(shares.freed == 0, "the previous share is kept, even unused")
        let a3 = shares.take(for: "http://a.test/3.jpg")
        #expect(a3 == a1 && shares.freed == 0)
        let d1 = shares.take(for: "http://d.test/1.jpg")
        #expect(d1 != c1 && d1 != a1 && shares.made == 3, "the current share was full")
        #expect(shares.freed == 0, "the retired share still has a transfer")
        shares.release(a3)
        #expect(shares.freed == 1, "freed with its last transfer")
        let a4 = shares.take(for: "http://a.test/4.jpg")
        #expect(a4 == d1, "two shares on, an origin moves to the current one")
        for s in [c1, b3, d1, a4] { shares.release(s) }
        _ = shares.take(for: "http://e.test/1.jpg")
        #expect(shares.made == 4 && shares.freed == 2, "a retired share with no transfer left is freed at once")
        shares.freeAll()
    }
}
