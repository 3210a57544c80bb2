import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The exchange's loop sleeps in poll(2) for up to a second when nothing is pending; a question submitted
/// then must wake it (``ExchangeState/submit(_:)`` wakes it when its queue was empty), not wait out that second.
@Suite struct DNSExchangeWakeTests {
    @Test func aQuestionWakesTheIdleLoop() async throws {
        let dns = try TestDNSServer()
        dns.set("idle.test", .address(v4: ["127.0.0.1"], ttl: 300))
        let exchange = try DNSExchange(servers: [try #require(DNSServer(dns.address))])
        var prompt = 0
        var waits: [Duration] = []
        for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(50))  // the loop is back asleep, nothing pending
            let start = ContinuousClock.now
            let answer = await exchange.ask("idle.test", .a)
            let took = ContinuousClock.now - start
            guard case .message = answer else {
                Issue.record("no answer from the test server")
                return
            }
            waits.append(took)
            if took < .milliseconds(400) { prompt += 1 }
        }
        // Unwoken, each question waits out the loop's poll (nearly a second); a loaded machine may delay one.
        #expect(prompt >= 4, "answers took \(waits)")
    }
}
