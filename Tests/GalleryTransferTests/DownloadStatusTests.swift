import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Retryable statuses, Retry-After and final statuses.
@Suite struct DownloadStatusTests {
    func gap(_ server: FaultServer, _ path: String) -> Double {
        let log = server.requests(path: path)
        guard log.count >= 2 else { return -1 }
        return log[1].arrival.timeIntervalSince(log[0].arrival)
    }

    @Test func retryAfterSecondsIsHonoured() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(1000)
        server.route("/a.jpg") { _, attempt in attempt == 1 ? .status(429, headers: ["Retry-After": "1"]) : .file(body) }
        let dir = try TempDirectory()
        let result = try await Kit.offPool {
            try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a")))
        }
        #expect(result.metrics.attempts == 2)
        let g = gap(server, "/a.jpg")
        // The lower bound shows the wait; the upper one only rules out a far longer one (a loaded 2-core
        // machine has stalled this process for seconds).
        #expect(g >= 0.95 && g < 10, "gap \(g)")
    }

    @Test func retryAfterDateIsHonoured() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(1000)
        server.route("/a.jpg") { _, attempt in
            attempt == 1 ? .status(503, headers: ["Retry-After": FaultServer.httpDate(Date().addingTimeInterval(2))]) : .file(body)
        }
        let dir = try TempDirectory()
        _ = try await Kit.offPool {
            try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a")))
        }
        // An HTTP date has whole seconds, so "in 2 s" means between 1 and 2 s from now.
        let g = gap(server, "/a.jpg")
        #expect(g >= 0.9 && g < 10, "gap \(g)")
    }

    @Test func retryAfterIsCappedByConfiguration() async throws {
        let server = try FaultServer()
        server.route("/a.jpg") { _, attempt in attempt == 1 ? .status(429, headers: ["Retry-After": "3600"]) : .file(Kit.jpeg(10)) }
        let dir = try TempDirectory()
        _ = try await Kit.offPool {
            try await Kit.engine { $0.retry.maxRetryAfter = 0.3 }
                .download(DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a")))
        }
        let g = gap(server, "/a.jpg")
        #expect(g >= 0.25 && g < 60, "gap \(g): capped at 0.3 s, not the 3,600 s asked")
    }

    @Test(arguments: [500, 502, 503, 504, 408])
    func serverErrorsThenSuccess(status: Int) async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(2000)
        server.route("/a.jpg") { _, attempt in attempt < 3 ? .status(status, text: "busy") : .file(body) }
        let dir = try TempDirectory()
        let dest = dir.file("a")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(result.metrics.attempts == 3)
        #expect(Kit.read(dest) == body)
    }

    @Test(arguments: [404, 403, 410])
    func clientErrorsAreNotRetried(status: Int) async throws {
        let server = try FaultServer()
        server.route("/a.jpg") { _, _ in .status(status, text: "nope") }
        let dir = try TempDirectory()
        let dest = dir.file("a")
        let error = try #require(await Kit.failure(Kit.engine(), DownloadRequest(url: server.url("/a.jpg"), destination: dest)))
        #expect(error.reason == .httpStatus(status))
        #expect(error.status == status)
        #expect(error.attempts == 1)
        #expect(server.requests(path: "/a.jpg").count == 1)
        #expect(error.description.contains(server.url("/a.jpg")))
        #expect(!Kit.exists(dest))
    }

    @Test func persistent503ReportsAllAttempts() async throws {
        let server = try FaultServer()
        server.route("/a.jpg") { _, _ in .status(503) }
        let dir = try TempDirectory()
        let error = try #require(await Kit.failure(Kit.engine(), DownloadRequest(url: server.url("/a.jpg"), destination: dir.file("a"))))
        #expect(error.reason == .httpStatus(503))
        #expect(error.attempts == 4)
        #expect(server.requests(path: "/a.jpg").count == 4)
    }
}
