import Foundation
import Testing
@testable import GalleryTransfer

@Suite struct RetryPolicyTests {
    @Test func retryAfterSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.parseRetryAfter("7", now: now) == 7)
        #expect(RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:13:25 GMT", now: now) == 5)
        #expect(RetryPolicy.parseRetryAfter("Tuesday, 14-Nov-23 22:13:30 GMT", now: now) == 10)
        #expect(RetryPolicy.parseRetryAfter("Tue Nov 14 22:13:21 2023", now: now) == 1)
        #expect(RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
    }

    @Test func retryAfterIsCapped() {
        let p = RetryPolicy(maxRetryAfter: 3)
        #expect(p.delay(afterAttempt: 1, retryAfter: "3600") == 3)
        #expect(p.delay(afterAttempt: 1, retryAfter: "2") == 2)
    }

    @Test func backoffIsFullJitterUnderAnExponentialCeiling() {
        let p = RetryPolicy(baseBackoff: 0.5, maxBackoff: 4)
        // The random source receives the range; return its upper bound to see the ceiling.
        let ceilings = (1...6).map { p.delay(afterAttempt: $0, retryAfter: nil, random: { $0.upperBound }) }
        #expect(ceilings == [0.5, 1, 2, 4, 4, 4])
        #expect(p.delay(afterAttempt: 3, retryAfter: nil, random: { $0.lowerBound }) == 0)
        for _ in 0..<100 { #expect((0...2).contains(p.delay(afterAttempt: 3, retryAfter: nil))) }
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatuses(_ status: Int) {
        #expect(TransferError(url: "u", reason: .httpStatus(status)).isRetryable)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 416, 501])
    func otherStatusesAreFinal(_ status: Int) {
        #expect(!TransferError(url: "u", reason: .httpStatus(status)).isRetryable)
    }

    @Test func imageSignatures() {
        #expect(ImageSignature.detect([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageSignature.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(ImageSignature.detect(Array("GIF89a..".utf8)) == .gif)
        #expect(ImageSignature.detect(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageSignature.detect(Array("<!DOCTYPE html>".utf8)) == nil)
        #expect(ImageSignature.detect(Array("RIFF\0\0\0\0WAVE".utf8)) == nil)
        #expect(ImageSignature.detect([]) == nil)
    }
}
