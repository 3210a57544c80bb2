import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// An off-path spoofer must guess the source port as well as the id (RFC 5452 §9.2): every try of every
/// question leaves from a UDP socket of its own, on a port the kernel picks at random.
@Suite struct ResolverSourcePortTests {
    @Test func eachQuestionLeavesFromItsOwnRandomPort() async throws {
        let dns = try TestDNSServer()
        defer { dns.stop() }
        let names = (0..<40).map { "port\($0).test" }
        for name in names { dns.set(name, .address(v4: ["127.0.0.1"], ttl: 300)) }
        let resolver = try ForwardingResolver(servers: [DNSServer(dns.address)!])
        let resolved = await Kit.offPool {
            await withTaskGroup(of: Bool.self) { group in
                for name in names { group.addTask { (try? await resolver.resolve(name).get()) != nil } }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
        }
        #expect(resolved == names.count)
        let ports = dns.sourcePorts
        #expect(ports.count >= 2 * names.count, "A and AAAA of each name: \(ports.count) questions")
        // 80 ports drawn from the kernel's ephemeral range (about 28,000): a handful may repeat, one port for
        // all of them (a socket for the exchange's life) or a short run of consecutive ones must not.
        #expect(Set(ports).count >= ports.count * 9 / 10, "\(Set(ports).count) distinct source ports for \(ports.count) questions")
        let sorted = Set(ports).sorted()
        let spread = Int(sorted.last ?? 0) - Int(sorted.first ?? 0)
        #expect(spread > 10 * ports.count, "ports from \(sorted.first ?? 0) to \(sorted.last ?? 0): not random")
    }
}
