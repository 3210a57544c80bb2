import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// The request/response API against a real server: routers, parameter encoding, validation, decoding.
@Suite struct RequestAPITests {
    struct Page: Codable, Equatable, Sendable {
        let page: Int
        let photos: [String]
    }

    struct NewAlbum: Codable, Sendable, Equatable {
        let title: String
        let tags: [String]
    }

    enum PhotoAPI: Router {
        case page(Int, base: String)
        case search(String, base: String)
        case create(NewAlbum, base: String)

        var baseURL: String {
            switch self {
            case .page(_, let b), .search(_, let b), .create(_, let b): return b
            }
        }
        var method: HTTPMethod { if case .create = self { .post } else { .get } }
        var path: String {
            switch self {
            case .page: "/photos"
            case .search: "/search"
            case .create: "/albums"
            }
        }
        var parameters: RequestParameters {
            switch self {
            case .page(let n, _): .query(["page": "\(n)", "per_page": "20"])
            case .search(let q, _): .query(["q": q])
            case .create(let album, _): .json(album)
            }
        }
        var headers: HTTPHeaders { ["X-Client": "tests"] }
    }

    func server() throws -> FaultServer {
        let server = try FaultServer()
        server.route("/photos") { request, _ in
            let page = request.query?.split(separator: "&").first { $0.hasPrefix("page=") }?.dropFirst(5) ?? "0"
            return .status(200, headers: ["Content-Type": "application/json; charset=utf-8"],
                           text: #"{"page":\#(page),"photos":["a.jpg","b.jpg"]}"#)
        }
        server.route("/search") { request, _ in .status(200, headers: ["Content-Type": "text/plain"], text: request.query ?? "") }
        server.route("/albums") { request, _ in
            .status(201, headers: ["Content-Type": "application/json"], body: request.body)
        }
        return server
    }

    @Test func routerQueryAndDecode() async throws {
        let server = try server()
        let engine = Kit.engine()
        let page = try await engine.request(PhotoAPI.page(2, base: server.baseURL))
            .validate(statusCode: 200..<300)
            .validate(contentType: ["application/json"])
            .decode(Page.self)
        #expect(page == Page(page: 2, photos: ["a.jpg", "b.jpg"]))
        let request = try #require(server.requests(path: "/photos").first)
        #expect(request.query == "page=2&per_page=20")
        #expect(request.headers["X-Client"] == "tests")
        #expect(request.headers["User-Agent"]?.hasPrefix("fetch-gallery/0.1 (+https://") == true)
    }

    @Test func queryValuesArePercentEncoded() async throws {
        let server = try server()
        let text = try await Kit.engine().request(PhotoAPI.search("cats & dogs=100%/ü", base: server.baseURL)).string()
        #expect(text == "q=cats%20%26%20dogs%3D100%25%2F%C3%BC")
    }

    @Test func jsonBodyEncoding() async throws {
        let server = try server()
        let album = NewAlbum(title: "Trip", tags: ["sea", "sun"])
        let response = try await Kit.engine().request(PhotoAPI.create(album, base: server.baseURL))
            .validate(statusCode: 200..<300).response()
        #expect(response.status == 201)
        let request = try #require(server.requests(path: "/albums").first)
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(try JSONDecoder().decode(NewAlbum.self, from: Data(request.body)) == album)
        let echoed = try await Kit.engine().request(PhotoAPI.create(album, base: server.baseURL)).decode(NewAlbum.self)
        #expect(echoed == album)
    }

    @Test func jsonAny() async throws {
        let server = try server()
        let object = try await Kit.engine().request(PhotoAPI.page(3, base: server.baseURL)).json()
        #expect((object as? [String: Any])?["page"] as? Int == 3)
    }

    @Test func statusValidationFailsWithContext() async throws {
        let server = try FaultServer()
        server.route("/gone") { _, _ in .status(410, text: "gone") }
        do {
            _ = try await Kit.engine().request(server.url("/gone")).validate().data()
            Issue.record("expected a failure")
        } catch {
            #expect(error.reason == .httpStatus(410))
            #expect(error.status == 410)
            #expect(error.attempts == 1)
            #expect(error.url == server.url("/gone"))
        }
        // Without validation the response comes back with its body.
        let response = try await Kit.engine().request(server.url("/gone")).response()
        #expect(response.status == 410 && response.text == "gone")
    }

    @Test func contentTypeValidation() async throws {
        let server = try server()
        do {
            _ = try await Kit.engine().request(PhotoAPI.search("x", base: server.baseURL))
                .validate(contentType: ["application/json", "image/*"]).string()
            Issue.record("expected a failure")
        } catch {
            #expect(error.reason == .unacceptableContentType("text/plain"))
        }
        #expect(DataRequest.matches(pattern: "image/*", "image/png"))
        #expect(!DataRequest.matches(pattern: "image/*", "text/html"))
    }

    @Test func decodingFailureIsTyped() async throws {
        let server = try server()
        do {
            _ = try await Kit.engine().request(PhotoAPI.search("x", base: server.baseURL)).decode(Page.self)
            Issue.record("expected a failure")
        } catch {
            guard case .decodingFailed = error.reason else { Issue.record("reason \(error)"); return }
        }
    }

    @Test func retriesApplyToRequestsToo() async throws {
        let server = try FaultServer()
        server.route("/flaky") { _, attempt in attempt < 3 ? .status(502) : .status(200, text: "ok") }
        let response = try await Kit.engine().request(server.url("/flaky")).validate().response()
        #expect(response.text == "ok")
        #expect(response.metrics.attempts == 3)
    }

    @Test func invalidURLsAreRefused() async {
        for (url, reason) in [("ftp://example.com/x", TransferError.Reason.unsupportedScheme("ftp")),
                              ("not a url", .invalidURL)] {
            do {
                _ = try await Kit.engine().request(url).data()
                Issue.record("expected a failure for \(url)")
            } catch {
                #expect(error.reason == reason)
            }
        }
    }

    @Test func cancellationStopsAStalledRequest() async throws {
        let server = try FaultServer()
        server.route("/slow") { _, _ in .status(200, body: Kit.bytes(100_000)).stall(afterBodyBytes: 10, seconds: 60) }
        let engine = Kit.engine { $0.lowSpeedWindow = 60 }
        let task = Task(executorPreference: DedicatedTaskExecutor.shared) { try await engine.request(server.url("/slow")).data() }
        // Cancelled once the transfer is stalled: the server has sent the 10 bytes before the stall.
        let stalled = Date().addingTimeInterval(30)
        while server.bodyBytesSent(path: "/slow") < 10 && Date() < stalled { try await Task.sleep(for: .milliseconds(10)) }
        try #require(server.bodyBytesSent(path: "/slow") >= 10, "the request never reached its stall")
        let start = Date()
        task.cancel()
        let result = await task.result
        // The stall lasts 60 s; ending well before it shows the cancel took. (The loop removes a cancelled
        // transfer on its next turn; the bound is loose because a loaded 2-core machine has starved this
        // test process for seconds.)
        #expect(Date().timeIntervalSince(start) < 10)
        guard case .failure(let error as TransferError) = result else { Issue.record("expected failure"); return }
        #expect(error.reason == .cancelled)
    }
}
