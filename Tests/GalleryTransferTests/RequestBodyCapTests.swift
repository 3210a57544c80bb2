import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// A request may lower the engine's body cap: a JSON page has no business being hundreds of megabytes.
@Suite struct RequestBodyCapTests {
    @Test func aGzipBombStopsAtTheRequestsCap() async throws {
        let server = try FaultServer()
        let bomb = FaultServer.gzipBomb(uncompressedBytes: 64 << 20)
        server.route("/page.json") { _, _ in
            .status(200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"], body: bomb)
        }
        do {
            _ = try await Kit.engine().request(server.url("/page.json")).maximumBodySize(1 << 20).data()
            Issue.record("the bomb was accepted")
        } catch {
            // Declared is the compressed length (under the cap): the decoded bytes are what is counted.
            guard case .bodyTooLarge(let limit, _) = error.reason else {
                Issue.record("reason: \(error)")
                return
            }
            #expect(limit == 1 << 20)
            #expect(error.attempts == 1)
        }
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeTheBody() async throws {
        let server = try FaultServer()
        server.route("/big.json") { _, _ in .status(200, text: String(repeating: "x", count: 300_000)) }
        do {
            _ = try await Kit.engine().request(server.url("/big.json")).maximumBodySize(100_000).data()
            Issue.record("the body was accepted")
        } catch {
            #expect(error.reason == .bodyTooLarge(limit: 100_000, declared: 300_000))
        }
        // Under the cap, the same request works; the engine's own cap still applies above it.
        let small = try await Kit.engine().request(server.url("/big.json")).maximumBodySize(400_000).data()
        #expect(small.count == 300_000)
        let engineCapped = Kit.engine { $0.maxBodyBytes = 200_000 }
        do {
            _ = try await engineCapped.request(server.url("/big.json")).maximumBodySize(1 << 30).data()
            Issue.record("the engine's cap was lifted by the request")
        } catch {
            #expect(error.reason == .bodyTooLarge(limit: 200_000, declared: 300_000))
        }
    }
}
