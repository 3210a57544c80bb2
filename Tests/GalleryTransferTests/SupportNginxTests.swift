import Foundation
import GalleryTestSupport
import Testing

/// The nginx harness against the real curl binary: ranges, If-Range with nginx's strong ETag,
/// 416, 304, keep-alive and `$body_bytes_sent` accounting.
@Suite struct SupportNginxTests {
    let bytes = patternBytes(50_000, seed: 7)
    let folder: TempDirectory
    let nginx: NginxServer

    init() throws {
        folder = try TempDirectory(prefix: "nginx root")  // a space, to prove paths are quoted
        try folder.write(bytes, to: "photo.jpg")
        try folder.write(Array("<p>hi</p>".utf8), to: "sub/page.html")
        nginx = try NginxServer(root: folder.path)
    }

    @Test func servesTheFileWithAStrongETag() throws {
        let result = try Curl.run([nginx.url("/photo.jpg")])
        #expect(result.status == 200)
        #expect(result.body == bytes)
        #expect(result.headers["Content-Type"] == "image/jpeg")
        #expect(result.headers["Accept-Ranges"] == "bytes")
        let etag = try #require(result.headers["ETag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let log = nginx.waitForRequests(path: "/photo.jpg", count: 1)
        #expect(log.first?.status == 200)
        #expect(log.first?.bodyBytesSent == bytes.count)
        #expect(nginx.bodyBytesSent(path: "/photo.jpg") == bytes.count)
    }

    @Test func resumedRangeSendsOnlyTheRest() throws {
        let full = try Curl.run([nginx.url("/photo.jpg")])
        let etag = try #require(full.headers["ETag"])
        let rest = try Curl.run(["-r", "30000-", "-H", "If-Range: \(etag)", nginx.url("/photo.jpg")])
        #expect(rest.status == 206)
        #expect(rest.headers["Content-Range"] == "bytes 30000-49999/50000")
        #expect(rest.body == Array(bytes[30_000...]))
        let log = nginx.waitForRequests(path: "/photo.jpg", count: 2)
        #expect(log.map(\.bodyBytesSent) == [50_000, 20_000])
        #expect(log.last?.range == "bytes=30000-")
        #expect(log.last?.ifRange == etag)
    }

    @Test func ifRangeMismatchSendsTheWholeFile() throws {
        let result = try Curl.run(["-r", "30000-", "-H", "If-Range: \"not-the-etag\"", nginx.url("/photo.jpg")])
        #expect(result.status == 200)
        #expect(result.body == bytes)
        #expect(nginx.waitForRequests(path: "/photo.jpg", count: 1).first?.bodyBytesSent == 50_000)
    }

    @Test func ifRangeWithLastModifiedDate() throws {
        let head = try Curl.run(["-I", nginx.url("/photo.jpg")])
        let modified = try #require(head.headers["Last-Modified"])
        #expect(FaultServer.parseHTTPDate(modified) != nil)
        let result = try Curl.run(["-r", "49000-", "-H", "If-Range: \(modified)", nginx.url("/photo.jpg")])
        #expect(result.status == 206)
        #expect(result.body == Array(bytes[49_000...]))
    }

    @Test func unsatisfiableRangeIs416() throws {
        let result = try Curl.run(["-r", "50000-", nginx.url("/photo.jpg")])
        #expect(result.status == 416)
        #expect(result.headers["Content-Range"] == "bytes */50000")
        #expect(nginx.waitForRequests(path: "/photo.jpg", count: 1).first?.status == 416)
    }

    @Test func ifNoneMatchIs304() throws {
        let full = try Curl.run([nginx.url("/photo.jpg")])
        let etag = try #require(full.headers["ETag"])
        let again = try Curl.run(["-H", "If-None-Match: \(etag)", nginx.url("/photo.jpg")])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(nginx.waitForRequests(path: "/photo.jpg", count: 2).last?.bodyBytesSent == 0)
    }

    @Test func keepAliveAndMissingFiles() throws {
        let result = try Curl.run([nginx.url("/sub/page.html"), nginx.url("/missing.jpg"), "-o", "/dev/null"])
        #expect(result.status == 404)
        let page = nginx.waitForRequests(path: "/sub/page.html", count: 1)
        let missing = nginx.waitForRequests(path: "/missing.jpg", count: 1)
        #expect(page.first?.status == 200)
        #expect(missing.first?.status == 404)
        #expect(page.first?.connection == missing.first?.connection)
        #expect(missing.first?.connectionRequests == 2)
    }

    @Test func missingNginxIsAClearError() throws {
        #expect {
            _ = try NginxServer(root: folder.path, binary: "/nonexistent/nginx")
        } throws: { error in
            "\(error)".contains("Scripts/bootstrap")
        }
    }

    @Test func badConfigurationReportsTheErrorLog() throws {
        #expect {
            _ = try NginxServer(root: folder.path, extraServerDirectives: "no_such_directive on;")
        } throws: { error in
            "\(error)".contains("unknown directive \"no_such_directive\"")
        }
    }

    @Test func extraDirectivesAndStop() throws {
        let slow = try NginxServer(root: folder.path, extraServerDirectives: "location /slow/ { limit_rate 20k; }")
        try folder.write(patternBytes(30_000), to: "slow/big.bin")
        let result = try Curl.run([slow.url("/slow/big.bin")])
        #expect(result.body.count == 30_000)
        #expect(result.duration >= 0.4)  // 20 kB/s after nginx's first burst
        let url = slow.url("/photo.jpg")
        slow.stop()
        #expect(try Curl.run([url], timeout: 5).exitCode == 7)
    }
}
