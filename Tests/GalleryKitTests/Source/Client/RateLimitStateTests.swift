import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The rate-limit headers of each service, as their documentation and recorded answers show them.
@Suite struct RateLimitStateTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func pexelsSpentBudgetBlocksUntilItsUnixReset() {
        var state = RateLimitState()
        state.note(success: ["X-Ratelimit-Limit": "200", "X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": "1750001800"], now: now)
        #expect(state.blockedUntil == Date(timeIntervalSince1970: 1_750_001_800))
        #expect(state.reason?.contains("X-Ratelimit-Remaining: 0") == true)
    }

    @Test func budgetLeftBlocksNothing() {
        var state = RateLimitState()
        state.note(success: ["x-ratelimit-remaining": "37", "X-RateLimit-Available-anon_burst": "12",
                             "X-RateLimit-Available-anon_sustained": "180"], now: now)
        #expect(state.blockedUntil == nil)
    }

    @Test func unsplashSendsNoResetSoTheHourIsAssumed() {
        var state = RateLimitState()
        state.note(success: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0"], now: now)
        #expect(state.blockedUntil == now.addingTimeInterval(3600))
    }

    @Test func openverseBurstIsAMinuteAndSustainedADay() {
        var burst = RateLimitState()
        burst.note(success: ["X-RateLimit-Available-anon_burst": "0", "X-RateLimit-Available-anon_sustained": "150"], now: now)
        #expect(burst.blockedUntil == now.addingTimeInterval(60))
        var sustained = RateLimitState()
        sustained.note(success: ["X-RateLimit-Available-anon_burst": "0", "X-RateLimit-Available-anon_sustained": "0"], now: now)
        #expect(sustained.blockedUntil == now.addingTimeInterval(24 * 3600))
        #expect(sustained.reason?.contains("anon_sustained") == true)
    }

    @Test func waitAfterALimitedAnswer() {
        #expect(RateLimitState.wait(afterLimited: ["Retry-After": "7"], body: "", now: now) == 7)
        #expect(RateLimitState.wait(afterLimited: ["X-Ratelimit-Reset": "1750000030"], body: "", now: now) == 30)
        let openverse = #"{"detail":"Request was throttled. Expected available in 42 seconds."}"#
        #expect(RateLimitState.wait(afterLimited: [:], body: openverse, now: now) == 42)
        #expect(RateLimitState.wait(afterLimited: [:], body: "Too Many Requests", now: now) == nil, "Pexels' bare 429")
    }

    @Test func limitedAnswersAre429AndRateLimit403s() {
        #expect(RateLimitState.isLimited(status: 429, body: ""))
        #expect(RateLimitState.isLimited(status: 403, body: "Rate Limit Exceeded"))
        #expect(!RateLimitState.isLimited(status: 403, body: "Forbidden"))
        #expect(!RateLimitState.isLimited(status: 401, body: "rate limit"))
    }
}

/// Keys out of every text that can be shown.
@Suite struct RedactorTests {
    @Test func keysAreReplacedAsTypedAndPercentEncoded() {
        let redactor = Redactor(secrets: ["k3y+with/slash", "plainkey123"])
        let text = "GET https://api/x?api_key=k3y%2Bwith%2Fslash&b=1 failed; Authorization: plainkey123; k3y+with/slash"
        let out = redactor.redact(text)
        #expect(!out.contains("k3y") && !out.contains("plainkey123"))
        #expect(out.contains("api_key=REDACTED&b=1"))
    }

    @Test func tooShortSecretsAreIgnored() {
        #expect(Redactor(secrets: ["", "ab"]).redact("about a b") == "about a b")
    }
}
