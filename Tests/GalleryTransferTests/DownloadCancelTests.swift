import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryTransfer

/// A cancelled download (Ctrl-C, a stopped gallery run) keeps its partial file, so the next
/// download of the same URL resumes instead of starting over.
@Suite struct DownloadCancelTests {
    @Test func cancelledDownloadKeepsItsPartialAndTheNextOneResumes() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(600_000, seed: 7)
        let slow = Locked(true)
        server.route("/a.jpg") { _, _ in
            let file = FaultServer.Response.file(body, etag: "\"v1\"", contentType: "image/jpeg")
            return slow.withLock { $0 } ? file.trickle(bytesPerSecond: 100_000) : file
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let engine = Kit.engine()
        let request = DownloadRequest(url: server.url("/a.jpg"), destination: dest, expectImage: true)
        let task = Task { try await engine.download(request) }
        while server.bodyBytesSent(path: "/a.jpg") < 150_000 { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("the download finished despite the cancel")
        } catch let error as TransferError {
            guard case .cancelled = error.reason else { Issue.record("reason: \(error)"); return }
        }
        #expect(!Kit.exists(dest))
        let part = Kit.read(dest + ".part") ?? []
        #expect(part.count >= 100_000 && part.count < body.count, "partial of \(part.count) bytes")
        #expect(Array(body.prefix(part.count)) == part)

        slow.withLock { $0 = false }
        let sentBefore = server.bodyBytesSent(path: "/a.jpg")
        let result = try await engine.download(request)
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == Int64(part.count))
        #expect(server.requests(path: "/a.jpg").last?.headers["Range"] == "bytes=\(part.count)-")
        // The rest, and only the rest: at most a slice or two of the cancelled attempt were still in
        // flight when sentBefore was read.
        let resent = server.bodyBytesSent(path: "/a.jpg") - sentBefore
        #expect(resent >= body.count - part.count && resent <= body.count - part.count + 64_000, "resent \(resent)")
        engine.shutdown()
    }
}
