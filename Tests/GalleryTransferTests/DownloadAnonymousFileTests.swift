import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Small bodies held in memory are published through an anonymous file named by `linkat`
/// (GallerySystemTests' `AtomicWriteTests` test that way alone); where that is refused, the `.part` +
/// `rename` way still runs, and either way the destination appears whole.
@Suite struct DownloadAnonymousFileTests {
    static func names(_ dir: TempDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// The fallback through the engine: a destination already there is replaced by way of `.part` + rename.
    @Test func downloadingOverAnExistingFileStillReplacesIt() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(40_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        let dir = try TempDirectory()
        _ = try dir.write(Array("stale".utf8), to: "a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a.jpg")))
        #expect(result.bytes == 40_000)
        #expect(Kit.read(dir.file("a.jpg")) == body)
        #expect(Self.names(dir) == ["a.jpg"])
    }

    @Test(arguments: [false, true])
    func aSmallDownloadMakesNoPartFile(durable: Bool) async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(40_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        let dir = try TempDirectory()
        _ = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a.jpg"),
                                                            durable: durable))
        #expect(Kit.read(dir.file("a.jpg")) == body)
        #expect(Self.names(dir) == ["a.jpg"])
    }
}
