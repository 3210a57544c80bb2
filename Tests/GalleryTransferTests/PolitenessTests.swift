import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Politeness against the fault server, timed from the server's side (request arrival times), with
/// tolerances for a loaded 2-core machine: the per-host request rate, Retry-After in seconds and as a date
/// on 429/503, a 403 "rate limit exceeded" retried, rate limits not spending attempts, a host paused.
@Suite struct PolitenessTests {
    static let photo = Kit.jpeg(3_000, seed: 77)

    static func serve(_ server: FaultServer, _ paths: [String]) {
        for p in paths { server.route(p) { _, _ in .file(Self.photo, contentType: "image/jpeg") } }
    }

    static func gaps(_ requests: [FaultServer.Request]) -> [Double] {
        let times = requests.map(\.arrival).sorted()
        return zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }
    }

    /// 10 requests to each of two hosts at 10 per second per host, six allowed at once: the i-th request to
    /// arrive at each host arrives at least i × 0.1 s after the batch began. (Only this lower bound is
    /// certain: on a loaded machine a request can be delayed past its slot, so arrivals may bunch later.)
    @Test func requestStartsAreSpacedPerHost() async throws {
        try await Kit.offPool {
            let a = try FaultServer(), b = try FaultServer()
            let paths = (0..<10).map { "/p\($0).jpg" }
            Self.serve(a, paths)
            Self.serve(b, paths)
            let engine = Kit.engine { $0.requestsPerSecondPerHost = 10 }
            let dir = try TempDirectory()
            let requests = paths.flatMap { p in
                [a, b].enumerated().map { i, s in DownloadRequest(url: s.url(p), destination: dir.file("\(i)\(p.dropFirst())")) }
            }
            let failures = FailureList()
            let start = Date()
            await engine.downloadAll(requests) { if let e = $0.error { failures.add(e) } }
            #expect(failures.all.isEmpty, "\(failures.all)")
            for server in [a, b] {
                let offsets = server.allRequests.map { $0.arrival.timeIntervalSince(start) }.sorted()
                #expect(offsets.count == 10)
                for (i, offset) in offsets.enumerated() {
                    #expect(offset >= Double(i) * 0.1 - 0.005, "request \(i) at \(offset) s: \(offsets)")
                }
            }
        }
    }

    /// The pacer's slots, without a network: per host, in order; a pause moves the host's next slot; loopback
    /// may be left out.
    @Test func slotsArePerHostAndAPauseDelaysTheHost() {
        let pacer = HostPacer(requestsPerSecond: 10, exemptsLoopback: true)
        #expect(pacer.reserve(host: "a.example:443") == 0)
        #expect(abs(pacer.reserve(host: "a.example:443") - 0.1) < 0.01)
        #expect(pacer.reserve(host: "b.example:443") == 0, "another host has its own slots")
        #expect(abs(pacer.reserve(host: "a.example:443") - 0.2) < 0.01)
        pacer.pause(host: "b.example:443", seconds: 2)
        #expect(abs(pacer.reserve(host: "b.example:443") - 2) < 0.01)
        #expect(pacer.reserve(host: "127.0.0.1:8080") == 0 && pacer.reserve(host: "127.0.0.1:8080") == 0)
        let unpaced = HostPacer(requestsPerSecond: nil, exemptsLoopback: false)
        #expect(unpaced.reserve(host: "c.example") == 0 && unpaced.reserve(host: "c.example") == 0)
        unpaced.pause(host: "c.example", seconds: 1)
        #expect(unpaced.reserve(host: "c.example") > 0.9, "a rate-limit pause applies without a rate")
    }

    @Test func loopbackCanBeLeftOutOfTheRate() async throws {
        try await Kit.offPool {
            let server = try FaultServer()
            let paths = (0..<6).map { "/q\($0).jpg" }
            Self.serve(server, paths)
            let engine = Kit.engine { $0.requestsPerSecondPerHost = 1; $0.rateExemptsLoopback = true }
            let dir = try TempDirectory()
            let start = Date()
            await engine.downloadAll(paths.map { DownloadRequest(url: server.url($0), destination: dir.file(String($0.dropFirst()))) }) { _ in }
            #expect(Date().timeIntervalSince(start) < 3, "6 requests at 1/s would take 5 s")
            #expect(server.allRequests.count == 6)
            #expect(HostPacer.isLoopback("127.0.0.1:8080") && HostPacer.isLoopback("[::1]:443") && HostPacer.isLoopback("localhost"))
            #expect(!HostPacer.isLoopback("upload.wikimedia.org") && !HostPacer.isLoopback("127.example.org:80"))
        }
    }

    @Test(arguments: [429, 503])
    func retryAfterInSecondsAndAsADateIsWaited(_ status: Int) async throws {
        try await Kit.offPool {
            let server = try FaultServer()
            server.route("/s.jpg") { _, attempt in
                attempt == 1 ? .status(status, headers: ["Retry-After": "1"], text: "wait\n") : .file(Self.photo, contentType: "image/jpeg")
            }
            server.route("/d.jpg") { _, attempt in
                // A date 2 s ahead, at one-second resolution: between 1 and 2 s from now.
                let later = FaultServer.httpDate(Date().addingTimeInterval(2))
                return attempt == 1 ? .status(status, headers: ["Retry-After": later], text: "wait\n") : .file(Self.photo, contentType: "image/jpeg")
            }
            let engine = Kit.engine()
            let dir = try TempDirectory()
            _ = try await engine.download(DownloadRequest(url: server.url("/s.jpg"), destination: dir.file("s.jpg")))
            _ = try await engine.download(DownloadRequest(url: server.url("/d.jpg"), destination: dir.file("d.jpg")))
            let seconds = Self.gaps(server.requests(path: "/s.jpg"))
            let date = Self.gaps(server.requests(path: "/d.jpg"))
            #expect(seconds.count == 1 && seconds[0] >= 0.95 && seconds[0] < 5, "\(seconds)")
            #expect(date.count == 1 && date[0] >= 0.95 && date[0] < 6, "\(date)")
        }
    }

    @Test func aForbiddenThatSaysRateLimitIsWaitedAndRetried() async throws {
        try await Kit.offPool {
            let server = try FaultServer()
            server.route("/limited.jpg") { _, attempt in
                attempt == 1
                    ? .status(403, headers: ["Content-Type": "application/json", "Retry-After": "1"],
                              text: "{\"message\":\"API rate limit exceeded for 203.0.113.9.\"}")
                    : .file(Self.photo, contentType: "image/jpeg")
            }
            server.route("/forbidden.jpg") { _, _ in .status(403, text: "Forbidden: hotlinking not allowed\n") }
            let engine = Kit.engine()
            let dir = try TempDirectory()
            let done = try await engine.download(DownloadRequest(url: server.url("/limited.jpg"), destination: dir.file("l.jpg")))
            #expect(Kit.read(done.path) == Self.photo)
            let gap = Self.gaps(server.requests(path: "/limited.jpg"))
            #expect(gap.count == 1 && gap[0] >= 0.95, "\(gap)")
            // A 403 that is not about rate is final, asked once.
            let error = try #require(await Kit.failure(engine, DownloadRequest(url: server.url("/forbidden.jpg"), destination: dir.file("f.jpg"))))
            #expect(error.reason == .httpStatus(403))
            #expect(server.requests(path: "/forbidden.jpg").count == 1)
            // The in-memory request path too.
            server.route("/api") { _, attempt in
                attempt == 1 ? .status(403, headers: ["Retry-After": "1"], text: "Rate limit exceeded\n")
                             : .status(200, headers: ["Content-Type": "application/json"], text: "{}")
            }
            let response = try await engine.request(server.url("/api")).validate().response()
            #expect(response.status == 200 && server.requests(path: "/api").count == 2)
        }
    }

    /// Six 429s in a row (more than the 4 attempts of the policy) do not fail the photo; a server that
    /// never stops answering 429 is given up at the deadline, after a bounded number of requests.
    @Test func rateLimitsSpendNoAttemptsButTheDeadlineBoundsThem() async throws {
        try await Kit.offPool {
            let server = try FaultServer()
            server.route("/busy.jpg") { _, attempt in
                attempt <= 6 ? .status(429, headers: ["Retry-After": "0"], text: "slow down\n") : .file(Self.photo, contentType: "image/jpeg")
            }
            server.route("/never.jpg") { _, _ in .status(429, headers: ["Retry-After": "0"], text: "slow down\n") }
            // The busy photo's engine has a deadline far beyond its ~2 s of backoff (a loaded machine, or a
            // sanitizer, made its 7 requests outlast 3 s); the never-ending one's is 3 s.
            func engine(deadline: Double) -> TransferEngine {
                Kit.engine {
                    $0.retry = RetryPolicy(maxAttempts: 4, baseBackoff: 0.05, maxBackoff: 0.4, maxRetryAfter: 3)
                    $0.deadline = deadline
                }
            }
            let dir = try TempDirectory()
            let done = try await engine(deadline: 60).download(DownloadRequest(url: server.url("/busy.jpg"), destination: dir.file("b.jpg")))
            #expect(Kit.read(done.path) == Self.photo)
            #expect(server.requests(path: "/busy.jpg").count == 7)
            // Retry-After: 0 still waits the backoff ceiling (0.05, 0.1, 0.2, 0.4, 0.4, 0.4 s): no storm.
            let gaps = Self.gaps(server.requests(path: "/busy.jpg"))
            #expect(gaps.reduce(0, +) >= 1.5, "\(gaps)")
            let start = Date()
            let error = try #require(await Kit.failure(engine(deadline: 3), DownloadRequest(url: server.url("/never.jpg"), destination: dir.file("n.jpg"))))
            #expect(error.reason == .httpStatus(429))
            #expect(Date().timeIntervalSince(start) < 5)
            #expect((5...12).contains(server.requests(path: "/never.jpg").count), "\(server.requests(path: "/never.jpg").count)")
        }
    }

    /// A 429 with Retry-After pauses the host: another transfer to it, started during the wait, waits too.
    @Test func aRateLimitPausesTheWholeHost() async throws {
        try await Kit.offPool {
            let server = try FaultServer()
            server.route("/first.jpg") { _, attempt in
                attempt == 1 ? .status(429, headers: ["Retry-After": "1"], text: "slow down\n") : .file(Self.photo, contentType: "image/jpeg")
            }
            Self.serve(server, ["/second.jpg"])
            // The engine announces the retry after it has paused the host: the second download starts then.
            let progress = AggregateProgress()
            let engine = Kit.engine { $0.observers = [progress] }
            let dir = try TempDirectory()
            let first = Task(executorPreference: DedicatedTaskExecutor.shared) { try await engine.download(DownloadRequest(url: server.url("/first.jpg"), destination: dir.file("1.jpg"))) }
            let announced = Date().addingTimeInterval(30)
            while progress.snapshot.retries == 0 && Date() < announced { try await Task.sleep(for: .milliseconds(5)) }
            try #require(progress.snapshot.retries == 1, "the 429 was never announced as a retry")
            _ = try await engine.download(DownloadRequest(url: server.url("/second.jpg"), destination: dir.file("2.jpg")))
            _ = try await first.value
            let limitedAt = try #require(server.requests(path: "/first.jpg").first?.arrival)
            let secondAt = try #require(server.requests(path: "/second.jpg").first?.arrival)
            #expect(secondAt.timeIntervalSince(limitedAt) >= 0.9, "\(secondAt.timeIntervalSince(limitedAt))")
        }
    }

    @Test func theDefaultUserAgentNamesTheToolItsVersionAndAContact() async throws {
        let server = try FaultServer()
        Self.serve(server, ["/ua.jpg"])
        let dir = try TempDirectory()
        _ = try await Kit.engine().download(DownloadRequest(url: server.url("/ua.jpg"), destination: dir.file("ua.jpg")))
        let agent = try #require(server.requests(path: "/ua.jpg").first?.headers["User-Agent"])
        #expect(agent.hasPrefix("fetch-gallery/0.1 (+https://"), "\(agent)")
        #expect(agent.contains(") libcurl/"), "\(agent)")
        _ = try await Kit.engine { $0.userAgent = "gallery-bot/2 (+mailto:me@example.org)" }
            .download(DownloadRequest(url: server.url("/ua.jpg"), destination: dir.file("ua2.jpg")))
        #expect(server.requests(path: "/ua.jpg").last?.headers["User-Agent"] == "gallery-bot/2 (+mailto:me@example.org)")
    }
}
