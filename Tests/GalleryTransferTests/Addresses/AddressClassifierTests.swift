import Testing
@testable import GalleryTransfer

/// The classifier on address literals: every range's edges, IPv6, and IPv6 forms that carry IPv4.
@Suite struct AddressClassifierTests {
    static let cases: [(String, AddressClass)] = [
        // IPv4 loopback 127/8, edges included
        ("127.0.0.1", .loopback), ("127.0.0.0", .loopback), ("127.255.255.255", .loopback), ("127.1.2.3", .loopback),
        ("126.255.255.255", .publicInternet), ("128.0.0.0", .publicInternet),
        // 10/8
        ("10.0.0.0", .privateNetwork), ("10.255.255.255", .privateNetwork), ("9.255.255.255", .publicInternet),
        ("11.0.0.0", .publicInternet),
        // 172.16/12
        ("172.16.0.0", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.15.255.255", .publicInternet),
        ("172.32.0.0", .publicInternet),
        // 192.168/16
        ("192.168.0.0", .privateNetwork), ("192.168.255.255", .privateNetwork), ("192.167.255.255", .publicInternet),
        ("192.169.0.0", .publicInternet),
        // 100.64/10 (carrier-grade NAT)
        ("100.64.0.0", .privateNetwork), ("100.127.255.255", .privateNetwork), ("100.63.255.255", .publicInternet),
        ("100.128.0.0", .publicInternet),
        // 169.254/16 link-local (cloud metadata)
        ("169.254.169.254", .linkLocal), ("169.254.0.0", .linkLocal), ("169.254.255.255", .linkLocal),
        ("169.253.255.255", .publicInternet), ("169.255.0.0", .publicInternet),
        // never connected to
        ("0.0.0.0", .unspecified), ("0.255.255.255", .unspecified), ("224.0.0.1", .multicast),
        ("239.255.255.255", .multicast), ("255.255.255.255", .multicast), ("223.255.255.255", .publicInternet),
        // public
        ("8.8.8.8", .publicInternet), ("203.0.113.7", .publicInternet), ("1.1.1.1", .publicInternet),
        // IPv6
        ("::1", .loopback), ("::", .unspecified), ("[::1]", .loopback),
        ("fc00::", .privateNetwork), ("fdff:ffff::1", .privateNetwork), ("fbff::1", .publicInternet),
        ("fe00::1", .publicInternet), ("fe80::", .linkLocal), ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal),
        ("fec0::1", .privateNetwork), ("ff02::1", .multicast), ("ff00::", .multicast),
        ("2001:db8::1", .publicInternet), ("2606:4700:4700::1111", .publicInternet), ("::2", .unspecified),  // ::0.0.0.2, IPv4-compatible
        // IPv4 inside IPv6: classified by the IPv4 address
        ("::ffff:127.0.0.1", .loopback), ("::ffff:7f00:1", .loopback), ("::ffff:10.1.2.3", .privateNetwork),
        ("::ffff:169.254.169.254", .linkLocal), ("::ffff:8.8.8.8", .publicInternet), ("::ffff:0.0.0.0", .unspecified),
        ("::ffff:224.0.0.1", .multicast), ("[::ffff:192.168.1.1]", .privateNetwork),
        ("::127.0.0.1", .loopback), ("::10.0.0.1", .privateNetwork),
        ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::8.8.8.8", .publicInternet),
    ]

    @Test(arguments: cases)
    func classifies(_ literal: String, _ expected: AddressClass) throws {
        let address = try #require(IPAddress(literal), "\(literal) should parse")
        #expect(address.addressClass == expected, "\(literal)")
    }

    @Test(arguments: ["localhost", "127.1", "1.2.3", "256.1.1.1", "::g", "fe80::1%eth0", "", "1.2.3.4.5", "0x7f.0.0.1",
                      "2130706433", " 127.0.0.1"])
    func refusesNonLiterals(_ text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test func printsTheUsualForm() throws {
        #expect(try #require(IPAddress("127.0.0.1")).description == "127.0.0.1")
        #expect(try #require(IPAddress("2001:0db8:0000::0001")).description == "2001:db8::1")
        #expect(try #require(IPAddress("::ffff:127.0.0.1")).description == "::ffff:127.0.0.1")
    }

    @Test func privacyOrdersTheClasses() {
        let ranked = AddressClass.allCases.compactMap { c in c.privacy.map { (c, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
        #expect(ranked == [.publicInternet, .privateNetwork, .linkLocal, .loopback])
        #expect(AddressClass.unspecified.privacy == nil && AddressClass.multicast.privacy == nil)
    }
}

/// The policy's decisions, including the public-API case that tests on 127.0.0.1 cannot reach end to end.
@Suite struct AddressPolicyTests {
    static func ip(_ s: String) -> IPAddress { IPAddress(s)! }

    @Test func publicOnlyRefusesEveryMorePrivateClass() {
        let policy = AddressPolicy(.atMostAsPrivateAs(.publicInternet),
                                   explanation: "the API host is public; --allow-private-addresses lifts this")
        #expect(policy.refusal(for: Self.ip("8.8.8.8"), origin: nil) == nil)
        #expect(policy.refusal(for: Self.ip("2001:db8::5"), origin: nil) == nil)
        for literal in ["127.0.0.1", "::1", "10.0.0.1", "192.168.1.1", "172.20.0.1", "100.64.1.1", "169.254.169.254",
                        "fe80::1", "fd00::1", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe"] {
            #expect(policy.refusal(for: Self.ip(literal), origin: nil) != nil, "\(literal)")
        }
        let refusal = policy.refusal(for: Self.ip("127.0.0.1"), origin: nil)
        #expect(refusal?.description
            == "refused to connect to 127.0.0.1 (loopback): the API host is public; --allow-private-addresses lifts this")
    }

    @Test func aPrivateAPIMayUsePrivateAndPublicButNotLinkLocalOrLoopback() {
        let policy = AddressPolicy(.atMostAsPrivateAs(.privateNetwork))
        #expect(policy.refusal(for: Self.ip("10.1.1.1"), origin: nil) == nil)
        #expect(policy.refusal(for: Self.ip("8.8.4.4"), origin: nil) == nil)
        #expect(policy.refusal(for: Self.ip("169.254.169.254"), origin: nil)?.addressClass == .linkLocal)
        #expect(policy.refusal(for: Self.ip("127.0.0.1"), origin: nil)?.addressClass == .loopback)
    }

    @Test func aLoopbackAPIMayUseAnyUnicastAddress() {
        let policy = AddressPolicy(.atMostAsPrivateAs(.loopback))
        for literal in ["127.0.0.1", "10.0.0.1", "169.254.1.1", "8.8.8.8", "::1"] {
            #expect(policy.refusal(for: Self.ip(literal), origin: nil) == nil, "\(literal)")
        }
    }

    @Test(arguments: [AddressPolicy.unrestricted, AddressPolicy(.atMostAsPrivateAs(.loopback)),
                      AddressPolicy(.atMostAsPrivateAsOrigin)])
    func unspecifiedAndMulticastAreAlwaysRefused(_ policy: AddressPolicy) {
        for literal in ["0.0.0.0", "::", "224.0.0.251", "255.255.255.255", "ff02::1", "::ffff:0.0.0.0"] {
            let refusal = policy.refusal(for: Self.ip(literal), origin: .loopback)
            #expect(refusal != nil, "\(literal)")
            #expect(refusal?.why.contains("never connected to") == true)
        }
    }

    @Test func originRuleFollowsTheFirstResponse() {
        let policy = AddressPolicy(.atMostAsPrivateAsOrigin)
        // Before the first response (origin unknown): the named host itself, whatever it is.
        #expect(policy.refusal(for: Self.ip("127.0.0.1"), origin: nil) == nil)
        // A public origin may not redirect inwards; a loopback one may go anywhere.
        #expect(policy.refusal(for: Self.ip("127.0.0.1"), origin: .publicInternet)?.addressClass == .loopback)
        #expect(policy.refusal(for: Self.ip("169.254.169.254"), origin: .privateNetwork)?.addressClass == .linkLocal)
        #expect(policy.refusal(for: Self.ip("8.8.8.8"), origin: .publicInternet) == nil)
        #expect(policy.refusal(for: Self.ip("10.0.0.2"), origin: .loopback) == nil)
    }

    @Test func aRefusalIsNotRetryable() {
        let refusal = AddressRefusal(address: "127.0.0.1", addressClass: .loopback, why: "test")
        let error = TransferError(url: "http://example.com/a.jpg", reason: .addressRefused(refusal))
        #expect(!error.isRetryable)
        #expect(error.description == "http://example.com/a.jpg: refused to connect to 127.0.0.1 (loopback): test")
    }
}
