import Testing
@testable import GalleryDemo
import GalleryHTTPServer

@Suite("Range and conditional request rules")
struct RangeDecisionTests {
    static let validators = RepresentationValidators(length: 1_000, entityTag: "\"dv1-7-2048-3e8-1\"",
                                                     lastModified: 1_700_000_000)
    static let date = HTTPDate.format(epochSeconds: 1_700_000_000)

    @Test(arguments: [
        ("bytes=0-99", RangeDecision.partial(0...99)),
        ("bytes=100-", .partial(100...999)),
        ("bytes=990-5000", .partial(990...999)),
        ("bytes=-10", .partial(990...999)),
        ("bytes=-5000", .partial(0...999)),
        ("bytes=999-999", .partial(999...999)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=1000-1200", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        // Ignored, so the whole body: bad syntax, other units, reversed, several ranges.
        ("bytes=5-1", .full),
        ("bytes=abc", .full),
        ("items=0-1", .full),
        ("bytes=0-1,5-6", .full),
        ("bytes 0-1", .full),
    ])
    func range(header: String, expected: RangeDecision) {
        let request = ConditionalRequest(range: header)
        #expect(RangeDecision.decide(request, for: Self.validators) == expected)
    }

    @Test(arguments: [
        ("\"dv1-7-2048-3e8-1\"", RangeDecision.partial(10...19)),
        ("\"other\"", .full),
        ("W/\"dv1-7-2048-3e8-1\"", .full),  // weak tags never match If-Range
        (date, .partial(10...19)),
        (HTTPDate.format(epochSeconds: 1_700_000_001), .full),
        ("yesterday", .full),
    ])
    func ifRange(value: String, expected: RangeDecision) {
        let request = ConditionalRequest(range: "bytes=10-19", ifRange: value)
        #expect(RangeDecision.decide(request, for: Self.validators) == expected)
    }

    @Test(arguments: [
        ("\"dv1-7-2048-3e8-1\"", RangeDecision.notModified),
        ("W/\"dv1-7-2048-3e8-1\"", .notModified),  // If-None-Match compares weakly
        ("\"a\", \"dv1-7-2048-3e8-1\"", .notModified),
        ("*", .notModified),
        ("\"other\"", .full),
    ])
    func ifNoneMatch(value: String, expected: RangeDecision) {
        let request = ConditionalRequest(ifNoneMatch: value)
        #expect(RangeDecision.decide(request, for: Self.validators) == expected)
    }

    @Test func ifModifiedSince() {
        #expect(RangeDecision.decide(.init(ifModifiedSince: Self.date), for: Self.validators) == .notModified)
        let earlier = HTTPDate.format(epochSeconds: 1_699_999_999)
        #expect(RangeDecision.decide(.init(ifModifiedSince: earlier), for: Self.validators) == .full)
        // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
        let both = ConditionalRequest(ifNoneMatch: "\"other\"", ifModifiedSince: Self.date)
        #expect(RangeDecision.decide(both, for: Self.validators) == .full)
    }

    @Test func notModifiedBeatsRange() {
        let request = ConditionalRequest(range: "bytes=0-1", ifNoneMatch: Self.validators.entityTag)
        #expect(RangeDecision.decide(request, for: Self.validators) == .notModified)
    }

    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(epochSeconds: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        for seconds in [0, 1_700_000_000, 2_000_000_123] {
            #expect(HTTPDate.parse(HTTPDate.format(epochSeconds: seconds)) == seconds)
        }
    }
}
