import Foundation
import GallerySync
import Testing
@testable import GalleryTransfer

/// A name whose A and AAAA outcomes are both cached (every URL of a host after its first) is answered at once,
/// without asking `outcome` again: no task and no 50 ms timer per URL. On 20,000 URLs over 5,000 names those
/// cost a second or more of CPU on two cores (context switches, wake-ups) against the same URLs by address.
@Suite struct DNSAnswersCachedTests {
    @Test func aNameCachedForBothTypesIsAnsweredWithoutAskingAgain() async throws {
        let answers = DNSAnswers(policy: DNSCachePolicy())
        let asked = Locked<[String]>([])
        let outcome: @Sendable (String, DNSMessage.RecordType) async -> DNSOutcome = { name, type in
            asked.withLock { $0.append("\(name)/\(type == .a ? "A" : "AAAA")") }
            return await answers.outcome(name, type) {
                (type == .a ? .addresses(["192.0.2.1"]) : .addresses(["2001:db8::1"]), 300)
            }
        }
        let first = await DNSAnswers.resolve("Host.Example.", resolver: "test", answers: answers, outcome: outcome)
        #expect(try first.get() == ResolvedHost(ipv4: ["192.0.2.1"], ipv6: ["2001:db8::1"]))
        #expect(Set(asked.withLock { $0 }) == ["host.example/A", "host.example/AAAA"])
        let again = await DNSAnswers.resolve("host.example", resolver: "test", answers: answers, outcome: outcome)
        #expect(try again.get() == ResolvedHost(ipv4: ["192.0.2.1"], ipv6: ["2001:db8::1"]))
        #expect(asked.withLock { $0.count } == 2, "asked again: \(asked.withLock { $0 })")
    }

    /// With only A cached (AAAA still on its way), the name goes the long way: AAAA is waited for as before.
    @Test func aNameWithOneTypeCachedStillAsksForTheOther() async {
        let answers = DNSAnswers(policy: DNSCachePolicy())
        _ = await answers.outcome("half.example", .a) { (.nameError, 300) }
        let asked = Locked<[String]>([])
        let result = await DNSAnswers.resolve("half.example", resolver: "test", answers: answers) { name, type in
            asked.withLock { $0.append(type == .a ? "A" : "AAAA") }
            return await answers.outcome(name, type) { (.nameError, 300) }
        }
        #expect((try? result.get()) == nil)
        #expect(asked.withLock { $0 }.sorted() == ["A", "AAAA"])
    }
}
