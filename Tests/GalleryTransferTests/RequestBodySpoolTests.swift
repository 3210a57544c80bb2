import Foundation
import GallerySync
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// A request with a ``BodySpool``: a body over the limit goes to the spool's file (declared by Content-Length or
/// found out as it grows), a small one stays in memory with no file, a retried body starts its file over, and an
/// error page stays the response's body.
@Suite struct RequestBodySpoolTests {
    func request(_ url: String, spool: BodySpool) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        request.spool = spool
        return request
    }

    @Test func aLargeBodyGoesToTheFileAndASmallOneStaysInMemory() async throws {
        let server = try FaultServer()
        let big = Kit.bytes(300_000), small = Kit.bytes(1_000, seed: 2)
        server.route("/big") { _, _ in .file(big, contentType: "application/octet-stream") }
        server.route("/unsized") { _, _ in .file(big, contentType: "application/octet-stream").chunked() }
        server.route("/small") { _, _ in .file(small, contentType: "application/octet-stream") }
        let dir = try TempDirectory(prefix: "body-spool")
        let engine = Kit.engine()
        for path in ["/big", "/unsized"] {
            let spool = BodySpool(path: dir.file(path.dropFirst() + ".body"), memoryLimit: 64 << 10)
            let response = try await engine.request(request(server.url(path), spool: spool)).validate().response()
            #expect(response.spooledPath == spool.path && response.body.isEmpty, "\(path)")
            #expect(Kit.read(spool.path) == big, "\(path)")
        }
        let spool = BodySpool(path: dir.file("small.body"), memoryLimit: 64 << 10)
        let response = try await engine.request(request(server.url("/small"), spool: spool)).validate().response()
        #expect(response.spooledPath == nil && response.body == small)
        #expect(!Kit.exists(spool.path))
    }

    @Test func aRetriedBodyStartsItsFileOver() async throws {
        let server = try FaultServer()
        let big = Kit.bytes(300_000)
        let asked = Locked(0)
        server.route("/cut") { _, _ in
            asked.withLock { n in n += 1; return n } == 1 ? .file(big, contentType: "application/octet-stream").cut(afterBodyBytes: 200_000)
                : .file(big, contentType: "application/octet-stream")
        }
        let dir = try TempDirectory(prefix: "body-spool")
        let engine = Kit.engine { $0.retry.maxAttempts = 2 }
        let spool = BodySpool(path: dir.file("cut.body"), memoryLimit: 64 << 10)
        let response = try await engine.request(request(server.url("/cut"), spool: spool)).validate().response()
        #expect(response.metrics.attempts == 2)
        #expect(response.spooledPath == spool.path && Kit.read(spool.path) == big)
    }

    @Test func anErrorPageIsTheBodyNotTheFile() async throws {
        let server = try FaultServer()
        server.route("/missing") { _, _ in .status(404, text: String(repeating: "n", count: 10_000)) }
        let dir = try TempDirectory(prefix: "body-spool")
        let spool = BodySpool(path: dir.file("missing.body"), memoryLimit: 1_000)
        let response = try await Kit.engine().request(request(server.url("/missing"), spool: spool)).response()
        #expect(response.status == 404 && response.spooledPath == nil && response.body.count == 10_000)
        #expect(!Kit.exists(spool.path))
    }
}
