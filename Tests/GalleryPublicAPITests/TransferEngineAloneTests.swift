import Foundation
import GalleryTestSupport
import GalleryTransfer
import GallerySync
import Testing

/// The transfer engine without any imaging: only `GalleryTransfer` is imported here.
@Suite struct TransferEngineAloneTests {
    @Test func requestValidateAndDownload() async throws {
        let server = try FaultServer()
        server.route("/api/page") { _, _ in
            .status(200, headers: ["Content-Type": "application/json"], text: #"{"page":1,"total":3}"#)
        }
        let payload = TestPhotos.patternBytes(300_000)
        server.route("/blob.bin") { _, _ in .file(payload, etag: "\"b1\"") }
        let engine = TransferEngine()
        defer { engine.shutdown() }

        struct Page: Decodable { var page: Int; var total: Int }
        let page = try await engine.request(server.url("/api/page"))
            .validate(statusCode: 200..<300)
            .validate(contentType: ["application/json"])
            .decode(Page.self)
        #expect(page.page == 1 && page.total == 3)

        let received = Locked<Int64>(0)
        let data = try await engine.request(server.url("/blob.bin")).validate()
            .onProgress { bytes, _ in received.withLock { $0 = max($0, bytes) } }
            .data()
        #expect(data == payload)
        #expect(received.withLock { $0 } == Int64(payload.count))

        let dir = try TempDirectory()
        let result = try await engine.download(DownloadRequest(url: server.url("/blob.bin"), destination: dir.file("b.bin")))
        #expect(result.bytes == Int64(payload.count))
        #expect(try dir.read("b.bin") == payload)
    }

    @Test func statusValidationFailsWithTheURL() async throws {
        let server = try FaultServer()
        let engine = TransferEngine()
        defer { engine.shutdown() }
        let url = server.url("/nothing")
        do {
            _ = try await engine.request(url).validate().data()
            Issue.record("a 404 passed validation")
        } catch {
            #expect(error.url == url && error.status == 404)
        }
    }
}
