import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Cut bodies, changed files and servers that ignore Range: every download ends byte-exact or fails without
/// leaving a complete-looking file.
@Suite struct DownloadResumeTests {
    /// 200 KB stays in memory (the small-file path); 3 MB spills to a `.part` with a sidecar. With
    /// `nothingOnDisk` the first attempt does not look for a partial, and the second still resumes.
    @Test(arguments: [200_000, 3_000_000], [false, true])
    func cutOnceResumesWithRangeByteExact(size: Int, nothingOnDisk: Bool) async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(size)
        server.route("/a.jpg") { _, attempt in
            let file = FaultServer.Response.file(body, etag: "\"v1\"", contentType: "image/jpeg")
            return attempt == 1 ? file.cut(afterBodyBytes: size / 2) : file
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        var request = DownloadRequest(url: server.url("/a.jpg"), destination: dest, expectImage: true)
        request.nothingOnDisk = nothingOnDisk
        let result = try await Kit.engine().download(request)
        #expect(Kit.read(dest) == body)
        #expect(result.metrics.attempts == 2)
        #expect(result.resumedFrom == Int64(size / 2))
        let log = server.requests(path: "/a.jpg")
        #expect(log.count == 2)
        #expect(log.last?.headers["Range"] == "bytes=\(size / 2)-")
        #expect(log.last?.headers["If-Range"] == "\"v1\"")
        // Resume efficiency: the server sent each byte once.
        #expect(server.bodyBytesSent(path: "/a.jpg") == size)
        #expect(!Kit.exists(dest + ".part") && !Kit.exists(dest + ".part.meta"))
    }

    @Test func cutOnEveryAttemptFailsWithoutACompleteLookingFile() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(100_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"").cut(afterBodyBytes: 10_000) }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let error = try #require(await Kit.failure(Kit.engine(), DownloadRequest(url: server.url("/a.jpg"), destination: dest)))
        guard case .truncatedBody = error.reason else { Issue.record("reason: \(error)"); return }
        #expect(error.attempts == 4)
        #expect(error.curlMessage != nil)
        #expect(!Kit.exists(dest))
        // What remains is a resumable partial: shorter than the file, with its sidecar.
        let part = Kit.read(dest + ".part") ?? []
        #expect(part.count < body.count && Array(body.prefix(part.count)) == part)
    }

    @Test func serverIgnoringRangeRestartsFromZero() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(300_000)
        server.route("/a.jpg") { _, attempt in
            let file = FaultServer.Response.file(body, etag: "\"v1\"", ignoringRange: true)
            return attempt == 1 ? file.cut(afterBodyBytes: 100_000) : file
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 0)
        #expect(server.requests(path: "/a.jpg").last?.headers["Range"] == "bytes=100000-")
    }

    @Test func changedFileBetweenAttemptsIsNeverSpliced() async throws {
        let server = try FaultServer()
        let v1 = Kit.jpeg(300_000, seed: 1)
        let v2 = Kit.jpeg(320_000, seed: 2)
        server.route("/a.jpg") { _, attempt in
            attempt == 1 ? .file(v1, etag: "\"v1\"").cut(afterBodyBytes: 150_000) : .file(v2, etag: "\"v2\"")
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        _ = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == v2)
        #expect(server.requests(path: "/a.jpg").last?.headers["If-Range"] == "\"v1\"")
    }

    /// A server that ignores If-Range and answers a changed file with 206 and a new ETag: refused, restarted.
    @Test func changedETagOnA206Restarts() async throws {
        let server = try FaultServer()
        let v1 = Kit.jpeg(300_000, seed: 1)
        let v2 = Kit.jpeg(300_000, seed: 2)
        server.route("/a.jpg") { request, attempt in
            switch attempt {
            case 1: return .file(v1, etag: "\"v1\"").cut(afterBodyBytes: 150_000)
            case 2: return .status(206, headers: ["ETag": "\"v2\"", "Content-Range": "bytes 150000-299999/300000"],
                                   body: Array(v2[150_000...]))
            default: return .file(v2, etag: "\"v2\"")
            }
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == v2)
        #expect(result.metrics.attempts == 3)
        #expect(server.requests(path: "/a.jpg").last?.headers["Range"] == nil)
    }

    @Test func weakETagIsNotResumed() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(200_000)
        server.route("/a.jpg") { _, attempt in
            let file = FaultServer.Response.file(body, etag: "W/\"v1\"")
            return attempt == 1 ? file.cut(afterBodyBytes: 100_000) : file
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 0)
        #expect(server.requests(path: "/a.jpg").allSatisfy { $0.headers["Range"] == nil })
        #expect(server.bodyBytesSent(path: "/a.jpg") == 300_000)
    }

    @Test func lastModifiedServesAsValidator() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(200_000)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        server.route("/a.jpg") { _, attempt in
            let file = FaultServer.Response.file(body, lastModified: date)
            return attempt == 1 ? file.cut(afterBodyBytes: 50_000) : file
        }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 50_000)
        #expect(server.requests(path: "/a.jpg").last?.headers["If-Range"] == FaultServer.httpDate(date))
    }

    /// A partial left by an earlier process that is already the whole file: 416 `bytes */LEN` finishes it.
    @Test func exactlyCompletePartialIsKeptOn416() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(50_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        try dir.write(body, to: "a.jpg.part")
        try PartPaths(destination: dest).saveSidecar(Sidecar(url: server.url("/a.jpg"), validator: .etag("\"v1\""),
                                                            expectedLength: 50_000), durable: false)
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 50_000)
        #expect(server.bodyBytesSent(path: "/a.jpg") == 0)
        #expect(!Kit.exists(dest + ".part.meta"))
    }

    @Test func oversizedPartialIsRestartedOn416() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(50_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        try dir.write(Kit.bytes(60_000, seed: 9), to: "a.jpg.part")
        try PartPaths(destination: dest).saveSidecar(Sidecar(url: server.url("/a.jpg"), validator: .etag("\"v1\""),
                                                            expectedLength: nil), durable: false)
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 0)
        let log = server.requests(path: "/a.jpg")
        #expect(log.count == 2)
        #expect(log.first?.headers["Range"] == "bytes=60000-")
        #expect(log.last?.headers["Range"] == nil)
    }

    @Test func partialFromAnotherURLIsNotResumed() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(50_000)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        try dir.write(Kit.bytes(20_000, seed: 5), to: "a.jpg.part")
        try PartPaths(destination: dest).saveSidecar(Sidecar(url: server.url("/b.jpg"), validator: .etag("\"v1\""),
                                                            expectedLength: 50_000), durable: false)
        _ = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        #expect(server.requests(path: "/a.jpg").first?.headers["Range"] == nil)
    }
}

extension DownloadResumeTests {
    /// `durable` fsyncs part, sidecar, file and folder; the result is the same file, and no working files remain.
    @Test(arguments: [100_000, 1_000_000])
    func durableDownloadPublishesTheSameBytes(size: Int) async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(size)
        server.route("/a.jpg") { _, _ in .file(body, etag: "\"v1\"") }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(url: server.url("/a.jpg"), destination: dest, durable: true))
        #expect(Kit.read(dest) == body)
        #expect(result.bytes == Int64(size))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.jpg"])
    }
}
