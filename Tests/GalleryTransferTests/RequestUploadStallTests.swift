import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The engine's stall check on uploads: a request still sending its body is making progress.
@Suite struct RequestUploadStallTests {
    /// 12 MB through a proxy that passes 2 MB/s on (~6 s), with a 3 s stall window and one attempt:
    /// before bytes sent counted, it was cut off as "slower than 1024 B/s for 3 s". The body is large
    /// because loopback's 64 KiB segments give the client's socket a send buffer of a few MB, which
    /// fills at once and drains at the proxy's pace while libcurl sees no progress: the tail must
    /// drain within the window.
    @Test func anUploadSlowerThanTheStallWindowIsNotCutOff() async throws {
        let server = try FaultServer()
        server.route("/upload") { request, _ in .status(200, text: "stored \(request.body.count)") }
        let proxy = try S3FaultProxy(upstreamPort: UInt16(server.port))
        proxy.throttleUploads(to: 2_000_000)
        let engine = Kit.engine {
            $0.retry = RetryPolicy(maxAttempts: 1)
            $0.lowSpeedLimit = 1024
            $0.lowSpeedWindow = 3
        }
        let body = [UInt8](repeating: 7, count: 12_000_000)
        let started = Date()
        let request = HTTPRequest(method: .put, url: proxy.endpoint + "/upload", headers: ["Content-Type": "application/octet-stream"], body: body)
        #expect(try await engine.request(request).validate().string() == "stored 12000000")
        #expect(Date().timeIntervalSince(started) > 4, "the throttle did not hold the upload back")
    }
}
