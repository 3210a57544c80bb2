import Foundation
import GalleryTestSupport
import Testing

/// The fault server's lifecycle: prompt stop, independence of connections, no leaked sockets.
@Suite struct SupportFaultServerLifecycleTests {
    @Test func stopEndsAStalledTransferPromptly() throws {
        let server = try FaultServer()
        server.route("/hang") { _, _ in .file(patternBytes(10_000)).stall(afterBodyBytes: 100, seconds: 600) }
        let client = try ProcessRunner("curl", ["-s", "-o", "/dev/null", server.url("/hang")])
        try waitUntil { server.bodyBytesSent(path: "/hang") == 100 }
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 2)
        let result = client.wait(timeout: 10)
        #expect(result.exitCode == 18)
        #expect(!result.timedOut)
    }

    @Test func aStalledConnectionDoesNotBlockOthers() throws {
        let server = try FaultServer()
        server.route("/hang") { _, _ in .file(patternBytes(10_000)).stallBeforeHeaders(seconds: 600) }
        server.route("/ok") { _, _ in .status(200, text: "fine") }
        let hanging = try ProcessRunner("curl", ["-s", "-o", "/dev/null", server.url("/hang")])
        try waitUntil { server.requests(path: "/hang").count == 1 }
        let result = try Curl.run([server.url("/ok")], timeout: 5)
        #expect(result.body == Array("fine".utf8))
        server.stop()
        #expect(hanging.wait(timeout: 10).exitCode == 52)
    }

    @Test func clientVanishingMidBodyDoesNotKillTheProcess() throws {
        // The server is still writing when curl gives up: send() fails with EPIPE/ECONNRESET,
        // which without MSG_NOSIGNAL would raise SIGPIPE and end the whole test run.
        let server = try FaultServer()
        let big = patternBytes(20_000_000)
        server.route("/big") { _, _ in .file(big).trickle(bytesPerSecond: 20_000_000) }
        let result = try Curl.run(["-m", "0.3", server.url("/big")])
        #expect(result.exitCode == 28)
        // Give the server time to hit the closed socket, then check it stopped writing.
        usleep(500_000)
        let sent = server.bodyBytesSent(path: "/big")
        usleep(300_000)
        #expect(server.bodyBytesSent(path: "/big") == sent)
        #expect(sent < big.count)
        server.route("/ok") { _, _ in .status(200, text: "still here") }
        #expect(try Curl.run([server.url("/ok")]).body == Array("still here".utf8))
    }

    @Test func manyServersLeakNoDescriptors() throws {
        func openDescriptors() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }
        // Warm up Foundation and curl plumbing so their one-off descriptors are not counted.
        do {
            let server = try FaultServer()
            _ = try Curl.run([server.url("/")])
        }
        func threads() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        }
        let before = openDescriptors()
        let threadsBefore = threads()
        for _ in 0..<30 {
            var client: ProcessRunner?
            do {
                let server = try FaultServer()
                server.route("/x") { _, _ in .status(200, text: "x").stall(afterBodyBytes: 0, seconds: 600) }
                // Leave a connection open on every server: releasing the server must close it.
                client = try ProcessRunner("curl", ["-s", "-o", "/dev/null", server.url("/x")])
                try waitUntil { server.requests(path: "/x").count == 1 }
            }
            #expect(client?.wait(timeout: 10).timedOut == false)
        }
        // One leaked descriptor per server would exceed this; other suites running in parallel
        // may hold a few of their own.
        #expect(openDescriptors() <= before + 20)
        // Each server had an accept thread and a connection thread; stop() joined them all.
        #expect(threads() <= threadsBefore + 20)
    }

    @Test func stopIsIdempotentAndRefusesNewConnections() throws {
        let server = try FaultServer()
        let url = server.url("/")
        server.stop()
        server.stop()
        let result = try Curl.run([url], timeout: 5)
        #expect(result.exitCode == 7)  // CURLE_COULDNT_CONNECT
    }

    @Test func httpDateRoundTrips() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(FaultServer.httpDate(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(FaultServer.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(FaultServer.parseHTTPDate("Sunday, 06-Nov-94 08:49:37 GMT") == date)
        #expect(FaultServer.parseHTTPDate("Sun Nov  6 08:49:37 1994") == date)
        #expect(FaultServer.parseHTTPDate("yesterday") == nil)
        #expect(FaultServer.httpDate(Date(timeIntervalSince1970: 784_111_777.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}

struct WaitTimedOut: Error {}

/// Polls `condition` every 10 ms for up to `seconds`.
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw WaitTimedOut() }
        usleep(10_000)
    }
}
