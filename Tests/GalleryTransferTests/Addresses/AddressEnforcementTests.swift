import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The engine enforces the address policy on the address each connection really goes to: tests run on
/// 127.0.0.1, so "public only" must refuse it before a single byte reaches the server.
@Suite struct AddressEnforcementTests {
    static let publicOnly = AddressPolicy(.atMostAsPrivateAs(.publicInternet),
                                          explanation: "the API host is public; --allow-private-addresses lifts this")

    @Test func publicOnlyDownloadNeverReachesALoopbackServer() async throws {
        let server = try FaultServer()
        server.route("/a.jpg") { _, _ in .file(Kit.jpeg(4000)) }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let error = try #require(await Kit.failure(Kit.engine(), DownloadRequest(
            url: server.url("/a.jpg"), destination: dest, expectImage: true, addressPolicy: Self.publicOnly)))
        guard case .addressRefused(let refusal) = error.reason else {
            Issue.record("expected a refusal, got \(error)")
            return
        }
        #expect(refusal.address == "127.0.0.1" && refusal.addressClass == .loopback)
        #expect(error.attempts == 1, "a refusal is not retried")
        #expect(error.description.contains(
            "refused to connect to 127.0.0.1 (loopback): the API host is public; --allow-private-addresses lifts this"))
        #expect(server.allRequests.isEmpty && server.connectionCount == 0)
        #expect(!Kit.exists(dest) && !Kit.exists(dest + ".part"))
    }

    @Test func aKeptAliveConnectionIsCheckedAgainForEachRequest() async throws {
        // Found by the pipeline test: the listing page opens a connection without restriction, and the
        // image request that follows reuses it, so the opensocket check alone never sees it.
        let server = try FaultServer()
        server.route("/page.json") { _, _ in .status(200, text: "{}") }
        server.route("/a.jpg") { _, _ in .file(Kit.jpeg(4000)) }
        let engine = Kit.engine()
        _ = try await engine.request(server.url("/page.json")).data()
        let error = await Self.dataFailure(engine.request(server.url("/a.jpg")).addressPolicy(Self.publicOnly))
        guard case .addressRefused(let refusal)? = error?.reason else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(refusal.addressClass == .loopback)
        #expect(server.requests(path: "/a.jpg").isEmpty)
        #expect(server.connectionCount == 1)
        // The same connection still serves a request the policy allows.
        _ = try await engine.request(server.url("/page.json")).data()
        #expect(server.requests(path: "/page.json").count == 2)
    }

    @Test func aHostNameIsJudgedByWhatItResolvesTo() async throws {
        let server = try FaultServer()
        server.route("/a.json") { _, _ in .status(200, text: "{}") }
        // "localhost" is a name, not a literal: only the resolved address (127.0.0.1 or ::1) can be judged.
        let url = "http://localhost:\(server.port)/a.json"
        do {
            _ = try await Kit.engine().request(HTTPRequest(url: url, addressPolicy: Self.publicOnly)).data()
            Issue.record("localhost was fetched under a public-only policy")
        } catch {
            guard case .addressRefused(let refusal) = error.reason else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
            #expect(refusal.addressClass == .loopback)
        }
        #expect(server.allRequests.isEmpty)
    }

    @Test func aMappedIPv6LiteralIsClassifiedByItsIPv4Address() async throws {
        let server = try FaultServer()
        let url = "http://[::ffff:127.0.0.1]:\(server.port)/a.json"
        let error = await Self.dataFailure(Kit.engine().request(url).addressPolicy(Self.publicOnly))
        guard case .addressRefused(let refusal)? = error?.reason else {
            Issue.record("expected a refusal, got \(String(describing: error))")
            return
        }
        #expect(refusal.addressClass == .loopback)
        #expect(server.allRequests.isEmpty)
    }

    @Test func aRedirectIntoARefusedAddressIsStoppedBeforeItConnects() async throws {
        let origin = try FaultServer()
        let target = try FaultServer()
        target.route("/secret.jpg") { _, _ in .file(Kit.jpeg(3000)) }
        // 0.0.0.0 reaches this machine's listeners on Linux: without the check the redirect would land.
        origin.route("/a.jpg") { _, _ in .redirect(to: "http://0.0.0.0:\(target.port)/secret.jpg") }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let error = try #require(await Kit.failure(Kit.engine(), DownloadRequest(url: origin.url("/a.jpg"), destination: dest)))
        guard case .addressRefused(let refusal) = error.reason else {
            Issue.record("expected a refusal, got \(error)")
            return
        }
        #expect(refusal.address == "0.0.0.0" && refusal.addressClass == .unspecified)
        #expect(error.attempts == 1)
        #expect(origin.requests(path: "/a.jpg").count == 1, "the allowed origin was asked once")
        #expect(target.allRequests.isEmpty, "nothing reached the refused place")
        #expect(!Kit.exists(dest))
    }

    @Test func withoutTheCheckZeroAddressWouldReachTheServer() async throws {
        // The control for the test above: 0.0.0.0 is a real way to this machine here, so refusing it matters.
        let target = try FaultServer()
        target.route("/secret.jpg") { _, _ in .file(Kit.jpeg(3000)) }
        let url = "http://0.0.0.0:\(target.port)/secret.jpg"
        let curl = try await Kit.offPool {
            try ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url], timeout: 20)
        }
        #expect(curl.stdoutText == "200")
        #expect(target.requests(path: "/secret.jpg").count == 1)
    }

    @Test func theOriginRuleLetsALoopbackOriginRedirectWithinLoopback() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(2500)
        server.route("/old.jpg") { _, _ in .redirect(to: "/new.jpg") }
        server.route("/new.jpg") { _, _ in .file(body) }
        let dir = try TempDirectory()
        let dest = dir.file("a.jpg")
        let result = try await Kit.engine().download(DownloadRequest(
            url: server.url("/old.jpg"), destination: dest, addressPolicy: AddressPolicy(.atMostAsPrivateAsOrigin)))
        #expect(Kit.read(dest) == body && result.metrics.lastAttempt.redirects == 1)
        #expect(result.metrics.lastAttempt.primaryIP == "127.0.0.1")
    }

    @Test func aLoopbackCeilingAllowsLoopback() async throws {
        let server = try FaultServer()
        server.route("/a.json") { _, _ in .status(200, text: "{\"ok\":true}") }
        let response = try await Kit.engine().request(server.url("/a.json"))
            .addressPolicy(AddressPolicy(.atMostAsPrivateAs(.loopback))).response()
        #expect(response.status == 200 && response.metrics.lastAttempt.primaryIP == "127.0.0.1")
    }

    static func dataFailure(_ request: DataRequest) async -> TransferError? {
        do {
            _ = try await request.data()
            return nil
        } catch {
            return error
        }
    }
}
