import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Conditional requests against nginx: a 304 is an answer, not a failure or a retry, and carries no body.
@Suite struct NginxConditionalTests {
    @Test func notModifiedIsAResponseWithoutBody() async throws {
        let root = try TempDirectory()
        let body = Kit.jpeg(80_000, seed: 12)
        try root.write(body, to: "c.jpg")
        let nginx = try NginxServer(root: root.path)
        let engine = Kit.engine()
        let first = try await engine.request(nginx.url("/c.jpg")).validate().response()
        #expect(first.status == 200 && first.body == body)
        let etag = try #require(first.headers["ETag"])
        let lastModified = try #require(first.headers["Last-Modified"])

        for header in [("If-None-Match", etag), ("If-Modified-Since", lastModified)] {
            let again = try await engine.request(HTTPRequest(url: nginx.url("/c.jpg"), headers: [header.0: header.1]))
                .validate(statusCode: 200..<400).response()
            #expect(again.status == 304, "\(header.0)")
            #expect(again.body.isEmpty)
            #expect(again.metrics.attempts == 1)
        }
        // The default validation (2xx) names the 304 as the reason, after one attempt (not retried).
        do {
            _ = try await engine.request(HTTPRequest(url: nginx.url("/c.jpg"), headers: ["If-None-Match": etag])).validate().data()
            Issue.record("a 304 passed 2xx validation")
        } catch {
            #expect(error.reason == .httpStatus(304))
            #expect(error.attempts == 1)
        }
        // A changed file: the old validator no longer matches and the new bytes come back with 200.
        let changed = Kit.jpeg(90_000, seed: 13)
        try root.write(changed, to: "c.jpg")
        let fresh = try await engine.request(HTTPRequest(url: nginx.url("/c.jpg"), headers: ["If-None-Match": etag]))
            .validate().response()
        #expect(fresh.status == 200 && fresh.body == changed)
        let log = nginx.waitForRequests(path: "/c.jpg", count: 5)
        #expect(log.map(\.status) == [200, 304, 304, 304, 200])
    }
}
