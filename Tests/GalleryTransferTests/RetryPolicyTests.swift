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

    /// What a refused body is named in the error: the kinds a captive portal, an API or a wrong link serves.
    @Test func notAnImageDescriptions() {
        func kind(_ text: String) -> String { ImageSignature.kind(of: Array(text.utf8)) }
        #expect(kind("<!DOCTYPE html><html>") == "HTML text")
        #expect(kind("\n  <html lang=en><head>") == "HTML text")
        #expect(kind("\u{FEFF}<!doctype HTML>") == "HTML text")
        #expect(kind("<?xml version=\"1.0\"?><svg xmlns=") == "SVG text (not supported)")
        #expect(kind("<?xml version=\"1.0\"?><rss>") == "XML text")
        #expect(kind("{\"error\":\"rate limited\"}") == "JSON text")
        #expect(kind("Access denied\n") == "plain text")
        #expect(ImageSignature.kind(of: [0x1F, 0x8B, 8, 0]) == "gzip data")
        #expect(ImageSignature.kind(of: Array("%PDF-1.7".utf8)) == "a PDF document")
        #expect(ImageSignature.kind(of: [0, 0, 0, 0x1C] + Array("ftypisom".utf8)) == "an ISO media file (MP4 or another non-image brand)")
        #expect(ImageSignature.detect([0, 0, 0, 0x1C] + Array("ftypavif".utf8)) == .avif)
        #expect(ImageSignature.detect([0, 0, 0, 0x18] + Array("ftypheic".utf8)) == .heic)
        #expect(ImageSignature.detect([0, 0, 0, 0x18] + Array("ftypisom".utf8)) == nil)
        #expect(ImageSignature.kind(of: [0, 1, 2, 3, 0xFE]) == "binary data")
        #expect(ImageSignature.describe(Array("<!DOCTYPE html><html>".utf8)) == "HTML text (\"<!DOCTYPE ht\")")
        #expect(ImageSignature.describe([]) == "an empty body")
    }
}
