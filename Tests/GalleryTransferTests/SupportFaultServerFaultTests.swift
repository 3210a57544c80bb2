import Foundation
import GalleryTestSupport
import Testing

/// The fault server's injected misbehaviours, each checked with the real curl binary.
@Suite struct SupportFaultServerFaultTests {
    let bytes = patternBytes(100_000)

    func serve(_ response: FaultServer.Response, at path: String = "/f") throws -> FaultServer {
        let server = try FaultServer()
        server.route(path) { _, _ in response }
        return server
    }

    @Test func cutKeepsDeclaredLengthAndClosesEarly() throws {
        let server = try serve(.file(bytes).cut(afterBodyBytes: 30_000))
        let result = try Curl.run([server.url("/f")])
        #expect(result.exitCode == 18)  // CURLE_PARTIAL_FILE
        #expect(result.headers["Content-Length"] == "100000")
        #expect(result.body == Array(bytes[..<30_000]))
        #expect(server.bodyBytesSent(path: "/f") == 30_000)
    }

    @Test func cutAppliesToTheRangeServed() throws {
        let server = try serve(.file(bytes).cut(afterBodyBytes: 10))
        let result = try Curl.run(["-r", "50000-", server.url("/f")])
        #expect(result.exitCode == 18)
        #expect(result.status == 206)
        #expect(result.body == Array(bytes[50_000..<50_010]))
    }

    /// A reset comes after every byte before it has reached the client, even one that reads slowly: a reset
    /// sent while bytes still wait in the server's send queue would drop them, so a slow client got fewer.
    @Test func resetDeliversEveryByteBeforeItToASlowReader() throws {
        let large = patternBytes(2_000_000)
        let server = try serve(.file(large).reset(afterBodyBytes: 1_000_000))
        let result = try Curl.run(["--limit-rate", "4M", server.url("/f")], timeout: 30)
        #expect(result.exitCode == 56)  // CURLE_RECV_ERROR
        #expect(result.body.count == 1_000_000)
        #expect(result.body.elementsEqual(large[..<1_000_000]))
    }

    @Test func lyingLongContentLengthIsAPartialFile() throws {
        let server = try serve(.file(bytes).declaringContentLength(200_000))
        let result = try Curl.run([server.url("/f")])
        #expect(result.exitCode == 18)
        #expect(result.headers["Content-Length"] == "200000")
        #expect(result.body == bytes)
    }

    @Test func lyingShortContentLengthTruncatesForTheClient() throws {
        let server = try serve(.file(bytes).declaringContentLength(1_000))
        let result = try Curl.run([server.url("/f")])
        #expect(result.headers["Content-Length"] == "1000")
        #expect(result.body == Array(bytes[..<1_000]))  // curl stops at the declared length
    }

    @Test func hugeDeclaredLengthOverShortBody() throws {
        let server = try serve(.status(200, headers: ["Content-Length": "53687091200"], body: Array(bytes[..<100])))
        let result = try Curl.run([server.url("/f")])
        #expect(result.headers["Content-Length"] == "53687091200")
        #expect(result.exitCode == 18)
        #expect(result.body.count == 100)
    }

    @Test func closeDelimitedBody() throws {
        let server = try serve(.file(bytes).withoutContentLength())
        let result = try Curl.run([server.url("/f")])
        #expect(result.exitCode == 0)
        #expect(result.headers["Content-Length"] == nil)
        #expect(result.headers["Connection"] == "close")
        #expect(result.body == bytes)
    }

    @Test func chunkedBody() throws {
        let server = try serve(.file(bytes).chunked())
        let result = try Curl.run([server.url("/f"), server.url("/f"), "-o", "/dev/null"])
        #expect(result.exitCode == 0)
        #expect(result.headers["Transfer-Encoding"] == "chunked")
        #expect(server.connectionCount == 1)  // chunked framing keeps the connection reusable
        #expect(server.bodyBytesSent(path: "/f") == 2 * bytes.count)
    }

    @Test func gzipEncodedDecodesToTheOriginal() throws {
        let server = try serve(.file(bytes).gzipEncoded())
        let decoded = try Curl.run(["--compressed", server.url("/f")])
        #expect(decoded.headers["Content-Encoding"] == "gzip")
        #expect(decoded.body == bytes)
        let raw = try Curl.run([server.url("/f")])
        #expect(Array(raw.body.prefix(2)) == [0x1F, 0x8B])
        #expect(raw.headers["Content-Length"] == String(raw.body.count))
    }

    @Test(arguments: [0, 1, 257, 258, 259, 1_000_000, 4 << 20])
    func gzipBombIsSmallAndInflatesToItsSize(size: Int) throws {
        let bomb = FaultServer.gzipBomb(uncompressedBytes: size)
        #expect(bomb.count < 200 + size / 900)
        let folder = try TempDirectory()
        let path = try folder.write(bomb, to: "bomb.gz")
        let check = try ProcessRunner.run("gzip", ["-t", path])
        #expect(check.exitCode == 0, "gzip -t: \(check.stderrText)")

        let server = try serve(.status(200, headers: ["Content-Encoding": "gzip"], body: bomb))
        let result = try Curl.run(["--compressed", server.url("/f")])
        #expect(result.exitCode == 0)
        #expect(result.body.count == size)
        #expect(result.body.allSatisfy { $0 == 0 })
        #expect(server.bodyBytesSent(path: "/f") == bomb.count)
    }

    @Test func gzipBombOfAGigabyteIsAboutAMegabyte() {
        let bomb = FaultServer.gzipBomb(uncompressedBytes: 1 << 30)
        #expect(bomb.count < 1_100_000)
    }

    @Test func stallMakesATimeLimitedClientGiveUp() throws {
        let server = try serve(.file(bytes).stall(afterBodyBytes: 5_000, seconds: 30))
        let result = try Curl.run(["-m", "1", server.url("/f")])
        #expect(result.exitCode == 28)  // CURLE_OPERATION_TIMEDOUT
        #expect(result.body.count == 5_000)
        #expect(result.duration < 10)
    }

    @Test func shortStallThenTheRestArrives() throws {
        let server = try serve(.file(bytes).stall(afterBodyBytes: 10, seconds: 0.5))
        let result = try Curl.run([server.url("/f")])
        #expect(result.exitCode == 0)
        #expect(result.body == bytes)
        #expect(result.duration >= 0.5)
    }

    @Test func slowHeadersTimeOut() throws {
        let server = try serve(.file(bytes).stallBeforeHeaders(seconds: 30))
        let result = try Curl.run(["-m", "1", server.url("/f")])
        #expect(result.exitCode == 28)
        #expect(result.status == 0)
    }

    @Test func trickleIsPaced() throws {
        let server = try serve(.file(Array(bytes[..<4_000])).trickle(bytesPerSecond: 8_000))
        let result = try Curl.run([server.url("/f")])
        #expect(result.exitCode == 0)
        #expect(result.body == Array(bytes[..<4_000]))
        #expect(result.duration >= 0.4)
    }

    @Test func droppedConnectionIsAnEmptyReply() throws {
        let server = try serve(.file(bytes).droppingConnection())
        let result = try Curl.run([server.url("/f")])
        #expect(result.exitCode == 52)  // CURLE_GOT_NOTHING
    }

    @Test func redirectsAreFollowedAndAnyLocationIsSent() throws {
        let server = try FaultServer()
        let bytes = self.bytes
        server.route("/start") { _, _ in .redirect(to: "/middle", status: 301) }
        server.route("/middle") { _, _ in .redirect(to: "/end") }
        server.route("/end") { _, _ in .file(bytes) }
        server.route("/evil") { _, _ in .redirect(to: "file:///etc/passwd") }
        let followed = try Curl.run(["-L", server.url("/start")])
        #expect(followed.status == 200)
        #expect(followed.body == bytes)
        #expect(server.requests(path: "/middle").count == 1)
        let evil = try Curl.run([server.url("/evil")])
        #expect(evil.status == 302)
        #expect(evil.headers["Location"] == "file:///etc/passwd")
    }

    @Test(arguments: [429, 503])
    func retryAfterStatuses(status: Int) throws {
        let server = try FaultServer()
        let later = FaultServer.httpDate(Date(timeIntervalSince1970: 1_800_000_000))
        server.route("/busy") { _, attempt in
            .status(status, headers: ["Retry-After": attempt == 1 ? "2" : later])
        }
        let first = try Curl.run([server.url("/busy")])
        let second = try Curl.run([server.url("/busy")])
        #expect(first.status == status)
        #expect(first.headers["Retry-After"] == "2")
        #expect(second.headers["Retry-After"] == "Fri, 15 Jan 2027 08:00:00 GMT")
    }

    @Test func htmlUnderAnImageContentType() throws {
        let server = try serve(.html())
        let result = try Curl.run([server.url("/f")])
        #expect(result.headers["Content-Type"] == "image/jpeg")
        #expect(String(decoding: result.body, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
    }
}
