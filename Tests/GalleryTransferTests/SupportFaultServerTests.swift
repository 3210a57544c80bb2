import Foundation
import GalleryTestSupport
import Testing

/// The fault server's plain-HTTP behaviour, checked with the real curl binary: full files,
/// ranges, conditional requests, the request log and byte accounting.
@Suite struct SupportFaultServerTests {
    let bytes = patternBytes(1000)
    let modified = Date(timeIntervalSince1970: 1_700_000_000)

    func fileServer(ignoringRange: Bool = false) throws -> FaultServer {
        let server = try FaultServer()
        let bytes = self.bytes
        let modified = self.modified
        server.route("/a.jpg") { _, _ in
            .file(bytes, etag: "\"v1\"", lastModified: modified, contentType: "image/jpeg",
                  ignoringRange: ignoringRange)
        }
        return server
    }

    @Test func fullFileWithValidators() throws {
        let server = try fileServer()
        let result = try Curl.run(["-A", "SelfTest/1", server.url("/a.jpg?size=big")])
        #expect(result.exitCode == 0)
        #expect(result.status == 200)
        #expect(result.body == bytes)
        #expect(result.headers["content-length"] == "1000")
        #expect(result.headers["ETag"] == "\"v1\"")
        #expect(result.headers["Last-Modified"] == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(result.headers["Accept-Ranges"] == "bytes")
        #expect(result.headers["Content-Type"] == "image/jpeg")
        let log = server.requests(path: "/a.jpg")
        #expect(log.count == 1)
        #expect(log.first?.method == "GET")
        #expect(log.first?.query == "size=big")
        #expect(log.first?.headers["user-agent"] == "SelfTest/1")
        #expect(server.bodyBytesSent(path: "/a.jpg") == 1000)
    }

    @Test(arguments: [
        ("100-", "bytes 100-999/1000", 100, 1000),
        ("100-199", "bytes 100-199/1000", 100, 200),
        ("-50", "bytes 950-999/1000", 950, 1000),
        ("990-5000", "bytes 990-999/1000", 990, 1000),
    ])
    func rangeGivesPartialContent(range: String, contentRange: String, from: Int, to: Int) throws {
        let server = try fileServer()
        let result = try Curl.run(["-r", range, server.url("/a.jpg")])
        #expect(result.status == 206)
        #expect(result.headers["Content-Range"] == contentRange)
        #expect(result.body == Array(bytes[from..<to]))
        #expect(server.bodyBytesSent(path: "/a.jpg") == to - from)
    }

    @Test(arguments: [
        ("\"v1\"", 206),  // strong match: the range applies
        ("\"v2\"", 200),  // changed representation: whole file
        ("W/\"v1\"", 200),  // weak tags never match If-Range
        ("Tue, 14 Nov 2023 22:13:20 GMT", 206),  // exact Last-Modified
        ("Tue, 14 Nov 2023 22:13:21 GMT", 200),
    ])
    func ifRange(condition: String, expectedStatus: Int) throws {
        let server = try fileServer()
        let result = try Curl.run(["-r", "600-", "-H", "If-Range: \(condition)", server.url("/a.jpg")])
        #expect(result.status == expectedStatus)
        #expect(result.body == (expectedStatus == 206 ? Array(bytes[600...]) : bytes))
    }

    @Test func unsatisfiableRangeGives416WithLength() throws {
        let server = try fileServer()
        let result = try Curl.run(["-r", "1000-", server.url("/a.jpg")])
        #expect(result.status == 416)
        #expect(result.headers["Content-Range"] == "bytes */1000")
        #expect(result.body.isEmpty)
    }

    @Test(arguments: [
        ["-H", "If-None-Match: \"v1\""],
        ["-H", "If-None-Match: \"v0\", W/\"v1\""],
        ["-H", "If-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT"],
    ])
    func conditionalGetGives304(arguments: [String]) throws {
        let server = try fileServer()
        let result = try Curl.run(arguments + [server.url("/a.jpg")])
        #expect(result.status == 304)
        #expect(result.body.isEmpty)
        #expect(result.headers["ETag"] == "\"v1\"")
        #expect(server.bodyBytesSent(path: "/a.jpg") == 0)
    }

    @Test func notModifiedKeepsTheConnectionUsable() throws {
        let server = try fileServer()
        let result = try Curl.run(["-H", "If-None-Match: \"v1\"", server.url("/a.jpg"), server.url("/a.jpg")])
        #expect(result.status == 304)
        #expect(server.requests(path: "/a.jpg").count == 2)
        #expect(server.connectionCount == 1)
    }

    @Test func staleConditionalGetGivesFullFile() throws {
        let server = try fileServer()
        let result = try Curl.run(["-H", "If-None-Match: \"v0\"", server.url("/a.jpg")])
        #expect(result.status == 200)
        #expect(result.body == bytes)
    }

    @Test func ignoringRangeAlwaysSendsEverything() throws {
        let server = try fileServer(ignoringRange: true)
        let result = try Curl.run(["-r", "100-", server.url("/a.jpg")])
        #expect(result.status == 200)
        #expect(result.headers["Accept-Ranges"] == nil)
        #expect(result.body == bytes)
    }

    @Test func headSendsLengthButNoBody() throws {
        let server = try fileServer()
        let result = try Curl.run(["-I", server.url("/a.jpg")])
        #expect(result.status == 200)
        #expect(result.headers["Content-Length"] == "1000")
        #expect(server.requests(path: "/a.jpg").first?.method == "HEAD")
        #expect(server.bodyBytesSent(path: "/a.jpg") == 0)
    }

    @Test func unknownPathIs404() throws {
        let server = try FaultServer()
        let result = try Curl.run([server.url("/nothing")])
        #expect(result.status == 404)
        #expect(server.requests(path: "/nothing").count == 1)
    }

    @Test func unmatchedPathsCanBeRouted() throws {
        let server = try FaultServer()
        let gallery = try TestPhotos.gallery(count: 3)
        let files = Dictionary(uniqueKeysWithValues: gallery.map { ("/g/\($0.name)", $0.photo.bytes) })
        server.routeUnmatched { request, _ in
            files[request.path].map { .file($0, contentType: "image/jpeg") } ?? .status(404)
        }
        let result = try Curl.run([server.url("/g/photo-002.jpg")])
        #expect(result.body == gallery[1].photo.bytes)
        #expect(try Curl.run([server.url("/g/nope.jpg")]).status == 404)
    }

    @Test func attemptsCountPerPath() throws {
        let server = try FaultServer()
        let bytes = self.bytes
        server.route("/flaky") { _, attempt in
            attempt < 3 ? .status(503, headers: ["Retry-After": "1"], text: "busy\n") : .file(bytes)
        }
        server.route("/other") { _, attempt in .status(200, text: "attempt \(attempt)") }
        let statuses = try (1...4).map { _ in try Curl.run([server.url("/flaky")]) }
        #expect(statuses.map(\.status) == [503, 503, 200, 200])
        #expect(statuses[0].headers["Retry-After"] == "1")
        #expect(try Curl.run([server.url("/other")]).body == Array("attempt 1".utf8))
        #expect(server.requests(path: "/flaky").count == 4)
        #expect(server.allRequests.count == 5)
    }

    @Test func keepAliveReusesOneConnection() throws {
        let server = try fileServer()
        let result = try Curl.run([server.url("/a.jpg"), server.url("/a.jpg"), "-o", "/dev/null"])
        #expect(result.exitCode == 0)
        let log = server.requests(path: "/a.jpg")
        #expect(log.count == 2)
        #expect(Set(log.map(\.connectionID)).count == 1)
        #expect(server.connectionCount == 1)
    }

    @Test func http10AndConnectionCloseEndTheConnection() throws {
        let server = try fileServer()
        _ = try Curl.run(["-0", server.url("/a.jpg"), server.url("/a.jpg"), "-o", "/dev/null"])
        _ = try Curl.run(["-H", "Connection: close", server.url("/a.jpg"), server.url("/a.jpg"), "-o", "/dev/null"])
        #expect(server.requests(path: "/a.jpg").count == 4)
        #expect(server.connectionCount == 4)
    }

    @Test func requestBodyIsReadAndLogged() throws {
        let server = try FaultServer()
        server.route("/upload") { request, _ in .status(201, text: "got \(request.body.count)") }
        let result = try Curl.run(["--data-binary", "hello body", server.url("/upload"), server.url("/upload")])
        #expect(result.status == 201)
        let log = server.requests(path: "/upload")
        #expect(log.count == 2)
        #expect(log.first?.method == "POST")
        #expect(log.first?.body == Array("hello body".utf8))
        #expect(server.connectionCount == 1)
        // A client that sends `Expect: 100-continue` (curl does for large bodies) waits for the server's answer
        // before the body: the server must answer at once. Unanswered, curl would wait 20 s and send the body
        // anyway, far from what a busy machine adds. The header is asked for, as curl's size threshold varies.
        let large = String(repeating: "z", count: 100_000)
        let big = try Curl.run(["-H", "Expect: 100-continue", "--expect100-timeout", "20", "--data-binary", large,
                                server.url("/upload")], timeout: 60)
        #expect(big.body == Array("got 100000".utf8))
        #expect(big.duration < 10)
    }
}
