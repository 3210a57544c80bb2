import Foundation
import GalleryKit
import GallerySync
import GalleryTestSupport
import Testing

/// The result cache and HTTP caching: hits after a restart, 304s, revalidation after the TTL,
/// one decode for concurrent identical requests, and a drain on SIGTERM.
@Suite(.serialized) struct ServeCacheTests {
    @Test func resultsSurviveARestartAndConditionalRequestsGet304() async throws {
        let dir = try TempDirectory(prefix: "serve-cache")
        defer { dir.remove() }
        _ = try dir.write(try Corpus.bytes("exif-orientation/Portrait_3.jpg"), to: "p.jpg")
        let arguments = ["--root", dir.path, "--cache-dir", dir.file("cache"), "--quiet"]
        let url = "/insecure/rs:fill:90:90/plain/local:///p.jpg"
        var server: ServeProcess? = try await ServeProcess(arguments)
        let first = try await Client.get(server!.baseURL + url)
        #expect(first.status == 200 && first.headers["X-Cache"] == "miss")
        let etag = try #require(first.headers["ETag"])
        #expect(first.headers["Cache-Control"] == "public, max-age=3600")
        let again = try await Client.get(server!.baseURL + url, headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty)
        #expect(server!.stop().exitCode == 0)
        server = try await ServeProcess(arguments)
        let restarted = try await Client.get(server!.baseURL + url)
        #expect(restarted.status == 200 && restarted.headers["X-Cache"] == "hit", "after restart: \(restarted.headers["X-Cache"] ?? "-")")
        #expect(restarted.body == first.body && restarted.headers["ETag"] == etag)
        let metrics = try await Client.get(server!.baseURL + "/metrics").text
        #expect(Client.metric(metrics, "serve_decodes_total") == 0, "a restarted hit decoded")
        _ = server!.stop()
    }

    @Test func revalidatesWithTheSourceAfterTheTTL() async throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let origin = try FaultServer()
        defer { origin.stop() }
        origin.route("/a.jpg") { _, _ in .file(photo, etag: "\"v1\"", contentType: "image/jpeg") }
        let server = try await ServeProcess(["--allow-private-addresses", "--ttl", "2", "--quiet"])
        defer { _ = server.stop() }
        let url = server.baseURL + "/insecure/w:32/plain/" + origin.url("/a.jpg")
        #expect(try await Client.get(url).headers["X-Cache"] == "miss")
        #expect(try await Client.get(url).headers["X-Cache"] == "hit")
        #expect(origin.requests(path: "/a.jpg").count == 1, "a hit within the TTL contacted the source")
        try await Task.sleep(for: .milliseconds(2200))
        let late = try await Client.get(url)
        #expect(late.status == 200 && late.headers["X-Cache"] == "revalidated")
        let requests = origin.requests(path: "/a.jpg")
        #expect(requests.count == 2 && requests.last?.headers["If-None-Match"] == "\"v1\"")
    }

    /// After the TTL the source changed: the conditional GET's 200 brings the new image, and the result is
    /// made from that body (two requests to the origin in all, not a third download).
    @Test func aChangedSourceIsDownloadedOnceWhenRevalidated() async throws {
        let before = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let after = try Corpus.bytes("libjpeg-turbo/testimgint.jpg")
        let origin = try FaultServer()
        defer { origin.stop() }
        let current = Locked((before, "\"v1\""))
        origin.route("/c.jpg") { _, _ in
            let (bytes, tag) = current.withLock { $0 }
            return .file(bytes, etag: tag, contentType: "image/jpeg")
        }
        let server = try await ServeProcess(["--allow-private-addresses", "--ttl", "1", "--quiet"])
        defer { _ = server.stop() }
        let url = server.baseURL + "/insecure/w:32/plain/" + origin.url("/c.jpg")
        let first = try await Client.get(url)
        current.withLock { $0 = (after, "\"v2\"") }
        try await Task.sleep(for: .milliseconds(1300))
        let changed = try await Client.get(url)
        #expect(changed.status == 200 && changed.headers["X-Cache"] == "miss")
        #expect(changed.body != first.body && changed.headers["ETag"] != first.headers["ETag"])
        let requests = origin.requests(path: "/c.jpg")
        #expect(requests.count == 2, "the changed source was downloaded \(requests.count - 1) times after the TTL")
        #expect(requests.last?.headers["If-None-Match"] == "\"v1\"")
        #expect(try await Client.get(url).headers["X-Cache"] == "hit")
        #expect(origin.requests(path: "/c.jpg").count == 2)
    }

    /// A source that sends neither ETag nor Last-Modified: after the TTL it is fetched again, and a client holding
    /// the old result's ETag gets the new image (200, another ETag), not a 304 for what it no longer is.
    @Test func aSourceWithoutValidatorsNeverGetsAStale304() async throws {
        let before = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let after = try Corpus.bytes("libjpeg-turbo/testimgint.jpg")
        let origin = try FaultServer()
        defer { origin.stop() }
        let current = Locked(before)
        origin.route("/n.jpg") { _, _ in .file(current.withLock { $0 }, contentType: "image/jpeg") }
        let server = try await ServeProcess(["--allow-private-addresses", "--ttl", "1", "--quiet"])
        defer { _ = server.stop() }
        let url = server.baseURL + "/insecure/w:32/plain/" + origin.url("/n.jpg")
        let first = try await Client.get(url)
        let etag = try #require(first.headers["ETag"])
        #expect(try await Client.get(url, headers: ["If-None-Match": etag]).status == 304, "the same image: 304")
        current.withLock { $0 = after }
        try await Task.sleep(for: .milliseconds(1300))
        let changed = try await Client.get(url, headers: ["If-None-Match": etag])
        #expect(changed.status == 200, "a changed image answered \(changed.status) to the old ETag")
        #expect(changed.headers["ETag"] != nil && changed.headers["ETag"] != etag)
        #expect(origin.requests(path: "/n.jpg").count == 2)
    }

    @Test func concurrentIdenticalRequestsDecodeOnce() async throws {
        let dir = try TempDirectory(prefix: "serve-coalesce")
        defer { dir.remove() }
        _ = try dir.write(try Corpus.bytes("exif-orientation/Landscape_1.jpg"), to: "l.jpg")
        let server = try await ServeProcess(["--root", dir.path, "--quiet"])
        defer { _ = server.stop() }
        let url = server.baseURL + "/insecure/rs:fill:200:200/g:sm/plain/local:///l.jpg"
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 { group.addTask { try await Client.get(url).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 12))
        let metrics = try await Client.get(server.baseURL + "/metrics").text
        #expect(Client.metric(metrics, "serve_decodes_total") == 1, "\(metrics)")
        #expect(metrics.contains("serve_requests_total{status=\"200\"} 12"))
        #expect(metrics.contains("serve_request_duration_seconds_bucket{le=\"+Inf\"}"))
    }

    /// The client that started a render hangs up; another that joined it still gets the image.
    @Test func aJoinedRequestSurvivesTheFirstClientHangingUp() async throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let origin = try FaultServer()
        defer { origin.stop() }
        origin.route("/slow.jpg") { _, _ in FaultServer.Response.file(photo, contentType: "image/jpeg").stallBeforeHeaders(seconds: 1.5) }
        let server = try await ServeProcess(["--allow-private-addresses", "--quiet"])
        defer { _ = server.stop() }
        let url = server.baseURL + "/insecure/w:40/plain/" + origin.url("/slow.jpg")
        let leader = try ProcessRunner("curl", ["-s", "-o", "/dev/null", "--max-time", "0.5", url])
        try await Task.sleep(for: .milliseconds(200))
        let joined = try await Client.get(url)
        #expect(joined.status == 200, "the joined request got \(joined.status) \(joined.text)")
        _ = leader.wait(timeout: 10)
        #expect(origin.requests(path: "/slow.jpg").count == 1)
    }

    @Test func sigtermUnderLoadLosesNoAnswer() async throws {
        let dir = try TempDirectory(prefix: "serve-drain")
        defer { dir.remove() }
        _ = try dir.write(try Corpus.bytes("exif-orientation/Landscape_2.jpg"), to: "l.jpg")
        let server = try await ServeProcess(["--root", dir.path, "--quiet", "--workers", "1"])
        // Distinct URLs, so each is a real decode; SIGTERM lands while most are in flight.
        let answers = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<10 {
                group.addTask { try await Client.get(server.baseURL + "/insecure/w:\(300 + index)/plain/local:///l.jpg").status }
            }
            try await Task.sleep(for: .milliseconds(150))
            server.runner.send(SIGTERM)
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: 200, count: 10), "answers: \(answers)")
        let exit = server.runner.wait(timeout: 30)
        #expect(exit.exitCode == 0, "exit: \(exit.status) \(exit.stderrText.suffix(500))")
        // New connections are refused once it has stopped.
        await #expect(throws: (any Error).self) { try await Client.get(server.baseURL + "/health") }
    }

    @Test func negotiatesAVIFAndWebPFromAccept() async throws {
        let dir = try TempDirectory(prefix: "serve-accept")
        defer { dir.remove() }
        _ = try dir.write(try Corpus.bytes("libjpeg-turbo/testorig.jpg"), to: "a.jpg")
        let server = try await ServeProcess(["--root", dir.path, "--quiet", "--auto-webp"], environment: ["IMGPROXY_AUTO_AVIF": "1"])
        defer { _ = server.stop() }
        let url = server.baseURL + "/insecure/w:40/plain/local:///a.jpg"
        let avif = try await Client.get(url, headers: ["Accept": "image/avif,image/webp,*/*"])
        #expect(try Client.probe(avif.body).format == .avif && avif.headers["Vary"] == "Accept")
        let webp = try await Client.get(url, headers: ["Accept": "image/webp,*/*"])
        #expect(try Client.probe(webp.body).format == .webp && webp.headers["ETag"] != avif.headers["ETag"])
        let plain = try await Client.get(url, headers: ["Accept": "*/*"])
        #expect(try Client.probe(plain.body).format == .jpeg && plain.headers["Vary"] == "Accept")
        let info = try await Client.get(server.baseURL + "/info/insecure/plain/local:///a.jpg")
        let json = try JSONSerialization.jsonObject(with: Data(info.body)) as? [String: Any]
        #expect(json?["width"] as? Int == 227 && json?["height"] as? Int == 149 && json?["format"] as? String == "jpeg")
        #expect((json?["thumbhash"] as? String)?.isEmpty == false && json?["size"] as? Int == 5770)
    }
}
