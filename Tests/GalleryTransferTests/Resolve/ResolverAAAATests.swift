import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// A and AAAA are asked at once, but a slow AAAA does not hold a host whose A has come (RFC 8305 §3): the
/// host goes on with IPv4 after a short delay, and the AAAA answer is kept for later URLs when it comes.
@Suite struct ResolverAAAATests {
    @Test func aSlowAAAADoesNotHoldTheIPv4Addresses() async throws {
        let dns = try TestDNSServer()
        defer { dns.stop() }
        dns.set("slow6.test", .byType(a: .address(v4: ["127.0.0.1"], ttl: 300),
                                      aaaa: .delayed(0.6, then: .address(v4: [], v6: ["::1"], ttl: 300))))
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!])
        let first = try await resolver.resolve("slow6.test").get()
        #expect(first.ipv4 == ["127.0.0.1"] && first.ipv6.isEmpty, "went on without the AAAA answer: \(first)")
        // The AAAA answer, when it comes (within its first try of 1 s), is cached for the name's next URL:
        // still one question.
        var later = first
        for _ in 0..<100 where later.ipv6.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            later = try await resolver.resolve("slow6.test").get()
        }
        #expect(later.ipv4 == ["127.0.0.1"] && later.ipv6 == ["::1"], "\(later)")
        #expect(dns.questions("slow6.test", .aaaa) == 1 && dns.questions("slow6.test", .a) == 1)
    }

    @Test func anAAAAThatComesFirstWaitsForA() async throws {
        let dns = try TestDNSServer()
        defer { dns.stop() }
        // IPv6 alone could be a black hole: the IPv4 addresses are waited for, to fall back on.
        dns.set("slow4.test", .byType(a: .delayed(0.5, then: .address(v4: ["127.0.0.1"], ttl: 300)),
                                      aaaa: .address(v4: [], v6: ["::1"], ttl: 300)))
        // A host with no IPv4 at all waits for its AAAA however long it takes.
        dns.set("only6.test", .byType(a: .address(v4: [], v6: [], ttl: 300),
                                      aaaa: .delayed(0.5, then: .address(v4: [], v6: ["::1"], ttl: 300))))
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!])
        let both = try await resolver.resolve("slow4.test").get()
        #expect(both.ipv4 == ["127.0.0.1"] && both.ipv6 == ["::1"], "\(both)")
        let only6 = try await resolver.resolve("only6.test").get()
        #expect(only6.ipv4.isEmpty && only6.ipv6 == ["::1"], "\(only6)")
    }
}
