import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// Cancelling the calling task stops the transfer: the call returns promptly with a cancellation
/// error and the server sees its connection closed.
@Suite struct PipelineCancellationTests {
    @Test func cancellingStopsATricklingDownload() async throws {
        let body = TestPhotos.patternBytes(2_000_000)
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0] + body  // a JPEG signature, so the sniffing lets it through
        let server = try FaultServer()
        server.route("/big.jpg") { _, _ in
            .file(jpeg, etag: "\"v1\"", contentType: "image/jpeg").trickle(bytesPerSecond: 100_000)
        }
        let log = EventLog()
        let pipeline = APIKit.pipeline(observers: [log])
        let task = Task { try await pipeline.image(url: server.url("/big.jpg"), size: .longestEdge(256)) }
        #expect(await APIKit.eventually { server.bodyBytesSent(path: "/big.jpg") > 30_000 })
        #expect(server.openConnectionCount == 1)
        let cancelledAt = Date()
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("the download finished despite the cancel")
        } catch let error as ImagePipelineError {
            #expect(error.isCancellation, "\(error)")
            #expect(error.source == .url(server.url("/big.jpg")))
        }
        // Promptly: generous for a loaded 2-core machine, far below the 20 s the body would take.
        #expect(Date().timeIntervalSince(cancelledAt) < 5)
        // The server notices the closed connection at its next write and stops sending.
        #expect(await APIKit.eventually(within: 10) { server.openConnectionCount == 0 })
        let sent = server.bodyBytesSent(path: "/big.jpg")
        try await Task.sleep(for: .milliseconds(500))
        #expect(server.bodyBytesSent(path: "/big.jpg") == sent)
        #expect(sent < jpeg.count / 2, "sent \(sent)")
        #expect(pipeline.statistics.decodes == 0 && pipeline.statistics.failures == 1)
        #expect(log.count("failed") == 1)
    }

    @Test func aCancelledTaskNeverStartsTheWork() async throws {
        let server = try APIKit.server(serving: try Corpus.bytes(APIKit.uprightPhoto))
        let pipeline = APIKit.pipeline()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pipeline.image(url: server.url("/photo.jpg"), size: .longestEdge(64))
        }
        await #expect(throws: ImagePipelineError.self) { _ = try await task.value }
        #expect(pipeline.statistics.decodes == 0)
        // The next request is not poisoned by the abandoned one.
        let bitmap = try await pipeline.image(url: server.url("/photo.jpg"), size: .longestEdge(64))
        #expect(bitmap.width == 64)
    }
}
