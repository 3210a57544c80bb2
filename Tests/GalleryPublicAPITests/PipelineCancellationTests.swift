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
        let transfers = AggregateProgress()
        let pipeline = APIKit.pipeline(observers: [log, transfers])
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
        // The transfer has ended, as a failure, and none is running or waiting to retry: nothing more
        // can be asked for. The server saw that one request.
        #expect(await APIKit.eventually(within: 10) { transfers.snapshot.failed == 1 && transfers.snapshot.active == 0 },
                "\(transfers.snapshot)")
        #expect(server.requests(path: "/big.jpg").count == 1)
        let sent = server.bodyBytesSent(path: "/big.jpg")
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

/// Cancelling also stops the decode: a request cancelled while its work waits for a worker
/// thread is never decoded, and returns at once instead of waiting for that thread.
@Suite struct PipelineDecodeCancellationTests {
    @Test func aCancelledRequestWaitingForAWorkerIsNeverDecoded() async throws {
        let dir = try TempDirectory()
        // A 24 MP photo-sized JPEG keeps the only worker busy for a while with its full decode.
        var noise = Bitmap(width: 6000, height: 4000, format: .rgb8)
        noise.withUnsafeMutableBytes { bytes in
            var state: UInt32 = 0x1234_5678
            for i in 0..<bytes.count {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[i] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let big = try dir.write(try ImageEncoder.encodeJPEG(noise, quality: 90), to: "big.jpg")
        let pipeline = APIKit.pipeline { $0.workers = 1 }

        let busy = Task { try await pipeline.image(fileAt: big) }
        #expect(await APIKit.eventually { pipeline.statistics.decodes == 1 })  // the big decode is running
        let small = Task { try await pipeline.image(fileAt: Corpus.path(APIKit.uprightPhoto), size: .longestEdge(64)) }
        // Cancelled once its work has started (and so is on its way to the worker queue), not after a pause.
        #expect(await APIKit.eventually { pipeline.statistics.started == 2 })
        small.cancel()
        do {
            _ = try await small.value
            Issue.record("the cancelled request returned an image")
        } catch let error as ImagePipelineError {
            #expect(error.isCancellation, "\(error)")
        }
        // The cancelled request's read and decode were queued behind the big decode: skipped.
        #expect(pipeline.statistics.decodes == 1)
        let bitmap = try await busy.value
        #expect(bitmap.width == 6000 && bitmap.height == 4000)
        // The one worker takes its jobs in order: once a later request is decoded, anything the cancelled
        // request had queued (its read, then its decode) has been taken already.
        let later = try await pipeline.image(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg"), size: .longestEdge(32))
        #expect(later.width == 32)
        #expect(pipeline.statistics.decodes == 2, "the cancelled request was decoded after all")
    }
}
