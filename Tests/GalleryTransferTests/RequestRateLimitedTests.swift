import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// `HTTPRequest.returnsRateLimitedAnswers`: an API client that reads a service's own rate-limit headers
/// and throttle messages gets the 429 (headers and body) back instead of the engine's retries.
@Suite struct RequestRateLimitedTests {
    static func server() throws -> FaultServer {
        let server = try FaultServer()
        server.route("/api") { _, attempt in
            attempt == 1
                ? .status(429, headers: ["X-Ratelimit-Remaining": "0", "Content-Type": "application/json"],
                          text: #"{"detail":"Request was throttled. Expected available in 9 seconds."}"#)
                : .status(200, text: "{}")
        }
        return server
    }

    @Test func aRateLimitedAnswerIsHandedBackWithItsHeadersAndBody() async throws {
        let server = try Self.server()
        let engine = Kit.engine()
        defer { engine.shutdown() }
        var request = HTTPRequest(url: server.url("/api"))
        request.returnsRateLimitedAnswers = true
        let response = try await engine.request(request).response()
        #expect(response.status == 429 && response.headers["X-Ratelimit-Remaining"] == "0")
        #expect(response.text.contains("Expected available in 9 seconds"))
        #expect(server.requests(path: "/api").count == 1, "not retried by the engine")
    }

    @Test func byDefaultTheEngineStillRetriesA429() async throws {
        let server = try Self.server()
        let engine = Kit.engine()
        defer { engine.shutdown() }
        let response = try await engine.request(HTTPRequest(url: server.url("/api"))).response()
        #expect(response.status == 200 && server.requests(path: "/api").count == 2)
    }
}
