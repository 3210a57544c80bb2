import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The per-origin files on a real server: fetched once per origin whatever the number of workers, and
/// each failure read as RFC 9309 and TDMRep say.
@Suite("Consent: per-origin files")
struct ConsentOriginCacheTests {
    let policy = OptOutPolicy(tokens: ["fetch-gallery"])

    @Test func twentyWorkersOnOneOriginFetchEachFileOnce() async throws {
        let server = try FaultServer()
        server.route("/robots.txt") { _, _ in .status(200, text: "User-agent: *\nDisallow: /private/\n") }
        server.route("/.well-known/tdmrep.json") { _, _ in
            .status(200, headers: ["Content-Type": "application/json"], text: #"[{"location": "/reserved/*", "tdm-reservation": 1}]"#)
        }
        let cache = OriginConsentCache(engine: Kit.engine(), policy: policy)
        let verdicts = await withTaskGroup(of: (String, OptOutSignal?).self) { group in
            for i in 0..<20 {
                let path = ["/private/\(i).jpg", "/reserved/\(i).jpg", "/open/\(i).jpg"][i % 3]
                group.addTask {
                    let origin = await cache.consent(for: server.url(path))
                    return (path, policy.beforeRequest(path: path, origin: origin)
                                  ?? policy.atHeaders(path: path, headers: HTTPHeaders(), origin: origin))
                }
            }
            var all: [(String, OptOutSignal?)] = []
            for await v in group { all.append(v) }
            return all
        }
        #expect(server.requests(path: "/robots.txt").count == 1)
        #expect(server.requests(path: "/.well-known/tdmrep.json").count == 1)
        #expect(cache.requestCounts == (1, 1))
        for (path, signal) in verdicts {
            if path.hasPrefix("/private/") { #expect(signal?.detail == "robots.txt Disallow: /private/") }
            else if path.hasPrefix("/reserved/") { #expect(signal?.detail == "tdmrep.json tdm-reservation 1 for /reserved/*") }
            else { #expect(signal == nil, "\(path): \(String(describing: signal))") }
        }
        #expect(server.requests(path: "/robots.txt").first?.headers["Range"] == "bytes=0-\(RobotsTxt.parsedLimit - 1)")
        // Kept as the value, not as the finished task, which holds on to the memory its awaits used (about
        // 37 KB an origin: 185 MB more at the peak over 5,000 hosts, in Scripts/bench-web-hosts).
        #expect(cache.fetchingCount == 0)
        _ = await cache.consent(for: server.url("/open/again.jpg"))
        #expect(cache.requestCounts == (1, 1), "the kept value answers")
    }

    @Test func atMostCapacityOriginsAreKeptTheOldestGoingFirst() async throws {
        let servers = try (0..<3).map { _ in try FaultServer() }
        for server in servers { server.route("/robots.txt") { _, _ in .status(200, text: "User-agent: *\nDisallow: /private/\n") } }
        let cache = OriginConsentCache(engine: Kit.engine(), policy: policy, capacity: 2)
        for server in servers { _ = await cache.consent(for: server.url("/a.jpg")) }
        #expect(cache.requestCounts.robots == 3)
        // The last two are kept; the first went when the third came, and is asked for again.
        _ = await cache.consent(for: servers[2].url("/b.jpg"))
        _ = await cache.consent(for: servers[1].url("/b.jpg"))
        #expect(cache.requestCounts.robots == 3, "the two kept answer")
        let again = await cache.consent(for: servers[0].url("/private/b.jpg"))
        #expect(cache.requestCounts.robots == 4 && servers[0].requests(path: "/robots.txt").count == 2)
        #expect(policy.beforeRequest(path: "/private/b.jpg", origin: again)?.detail == "robots.txt Disallow: /private/")
        // Asking for the first again dropped the oldest kept now, the second server's.
        _ = await cache.consent(for: servers[1].url("/c.jpg"))
        #expect(cache.requestCounts.robots == 5)
    }

    @Test func aMissingFileAllowsAServerErrorDisallows() async throws {
        let server = try FaultServer()
        server.route("/robots.txt") { _, _ in .status(404, text: "no") }
        let missing = await OriginConsentCache(engine: Kit.engine(), policy: policy).consent(for: server.url("/a.jpg"))
        #expect(missing.robots.allows("/a.jpg", for: ["fetch-gallery"]))
        #expect(missing.tdmrep.rules.isEmpty)

        let failing = try FaultServer()
        failing.route("/robots.txt") { _, _ in .status(503, text: "busy") }
        let engine = Kit.engine { $0.retry.maxAttempts = 1 }
        let down = await OriginConsentCache(engine: engine, policy: policy).consent(for: failing.url("/a.jpg"))
        #expect(policy.beforeRequest(path: "/a.jpg", origin: down)?.detail == "robots.txt unreachable (5xx or no answer): all disallowed")

        let nobody = await OriginConsentCache(engine: engine, policy: policy).consent(for: "http://127.0.0.1:9/a.jpg")
        #expect(!nobody.robots.allows("/a.jpg", for: ["fetch-gallery"]), "unreachable: all disallowed")
    }

    @Test func hugeJunkAndBrokenFiles() async throws {
        let server = try FaultServer()
        // 10 MB, sent whole (the server ignores the Range): only the first 500 KiB count.
        let huge = "User-agent: *\nDisallow: /early\n" + String(repeating: "# filler filler filler filler filler filler\n", count: 240_000)
            + "Disallow: /late\n"
        server.route("/robots.txt") { _, _ in .status(200, text: huge) }
        server.route("/.well-known/tdmrep.json") { _, _ in .status(200, text: "<html>not json</html>") }
        let cache = OriginConsentCache(engine: Kit.engine(), policy: policy)
        let origin = await cache.consent(for: server.url("/x.jpg"))
        #expect(huge.utf8.count > 10_000_000)
        #expect(!origin.robots.allows("/early/a.jpg", for: ["fetch-gallery"]))
        #expect(origin.robots.allows("/late/a.jpg", for: ["fetch-gallery"]))
        #expect(origin.tdmrep.rules.isEmpty)
        #expect(cache.unreadableFiles == [server.url("/.well-known/tdmrep.json") + ": not JSON (21 bytes)"])

        let junk = try FaultServer()
        junk.route("/robots.txt") { _, _ in .status(200, body: Kit.bytes(70_000, seed: 9)) }
        let junkOrigin = await OriginConsentCache(engine: Kit.engine(), policy: policy).consent(for: junk.url("/x.jpg"))
        #expect(junkOrigin.robots.allows("/x.jpg", for: ["fetch-gallery"]), "binary junk has no rules")
    }

    @Test func ignoredSignalsFetchNothing() async throws {
        let server = try FaultServer()
        server.route("/robots.txt") { _, _ in .status(200, text: "User-agent: *\nDisallow: /\n") }
        let ignoring = OptOutPolicy(tokens: ["fetch-gallery"], ignored: [.robotsTxt, .contentSignal, .contentUsage, .tdmRep])
        let cache = OriginConsentCache(engine: Kit.engine(), policy: ignoring)
        _ = await cache.consent(for: server.url("/a.jpg"))
        #expect(server.requests(path: "/robots.txt").isEmpty)
        #expect(cache.requestCounts == (0, 0))
    }

    @Test func originsAndPaths() {
        #expect(OriginConsentCache.split("HTTPS://Example.COM:8443/a/b.jpg?x=1#frag")! == ("https://example.com:8443", "/a/b.jpg?x=1"))
        #expect(OriginConsentCache.split("http://h")! == ("http://h", "/"))
        #expect(OriginConsentCache.split("http://h?q")! == ("http://h", "/?q"))
        #expect(OriginConsentCache.split("not a url") == nil)
    }
}
