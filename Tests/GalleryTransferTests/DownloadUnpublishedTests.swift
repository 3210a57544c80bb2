import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// `leavesSmallBodyUnpublished`: a body held whole in memory comes back unwritten, and the caller's
/// `publish` writes it whole under the name asked for (or another), replacing what is there.
@Suite struct DownloadUnpublishedTests {
    static func names(_ dir: TempDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    func download(_ body: [UInt8], into dir: TempDirectory, memoryLimit: Int? = nil) async throws -> DownloadResult {
        let server = try FaultServer()
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        var request = DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a.jpg"))
        request.leavesSmallBodyUnpublished = true
        let engine = Kit.engine { c in if let memoryLimit { c.memoryBufferLimit = memoryLimit } }
        return try await engine.download(request)
    }

    @Test func aSmallBodyComesBackUnwrittenAndPublishesWhole() async throws {
        let dir = try TempDirectory()
        let body = Kit.jpeg(40_000, seed: 5)
        let result = try await download(body, into: dir)
        let held = try #require(result.unpublished)
        #expect(held.bytes == body)
        #expect(Self.names(dir).isEmpty, "nothing is written before publish")
        try held.publish()
        #expect(Kit.read(dir.file("a.jpg")) == body)
        #expect(Self.names(dir) == ["a.jpg"])
    }

    @Test func publishingUnderATakenNameReplacesItWithNoPartLeft() async throws {
        let dir = try TempDirectory()
        let body = Kit.jpeg(30_000, seed: 6)
        let held = try #require(try await download(body, into: dir).unpublished)
        _ = try dir.write(Array("stale".utf8), to: "b.jpg")
        try held.publish(to: dir.file("b.jpg"))
        #expect(Kit.read(dir.file("b.jpg")) == body)
        #expect(Self.names(dir) == ["b.jpg"])
    }

    @Test func aFailedPublishNamesTheURLAndLeavesNothing() async throws {
        let dir = try TempDirectory()
        let held = try #require(try await download(Kit.jpeg(1_000), into: dir).unpublished)
        #expect {
            try held.publish(to: dir.file("no/such/folder/a.jpg"))
        } throws: { error in
            guard let e = error as? TransferError else { return false }
            return e.url.hasSuffix("/a.jpg") && "\(e)".contains("no/such/folder")
        }
        #expect(Self.names(dir).isEmpty)
    }

    @Test func aBodyOverTheMemoryLimitIsPublishedByTheEngine() async throws {
        let dir = try TempDirectory()
        let body = Kit.jpeg(200_000, seed: 7)
        let result = try await download(body, into: dir, memoryLimit: 64 * 1024)
        #expect(result.unpublished == nil)
        #expect(Kit.read(dir.file("a.jpg")) == body)
        #expect(Self.names(dir) == ["a.jpg"])
    }
}
