import GalleryHTTPServer
import GallerySync

/// The 500px-style JSON endpoints and the image route.
struct CatalogueRoutes: Sendable {
    let catalogue: DemoCatalogue
    let images: ImageResponder
    /// `http://127.0.0.1:PORT`, known only once the socket is bound.
    let baseURL: BaseURLBox

    /// `GET /photos`, `/photos/ID`, `/photos/ID/comments`, and `GET` or `HEAD /images/ID/FILE`.
    func respond(to request: HTTPServerRequest) async -> HTTPServerResponse {
        guard request.method == "GET" || request.isHead else {
            return APIResponses.error(405, "\(request.method) is not served")
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch (parts.first, parts.count) {
        case ("photos", 1): return list(request)
        case ("photos", 2): return single(request, id: parts[parts.startIndex + 1])
        case ("photos", 3) where parts.last == "comments": return comments(request, id: parts[parts.startIndex + 1])
        case ("images", 3): return await images.respond(to: request, id: parts[parts.startIndex + 1], file: parts[parts.startIndex + 2])
        default: return APIResponses.error(404, "No such route: \(request.path)")
        }
    }

    private func documents(for request: HTTPServerRequest) -> CatalogueDocuments {
        // Before the port is stored (a request racing the start), the Host header is the next best answer.
        let base = baseURL.value ?? "http://\(request.header("Host") ?? "127.0.0.1")"
        return CatalogueDocuments(catalogue: catalogue, baseURL: base)
    }

    /// `GET /photos?feature=popular&page=N&rpp=50[&image_size=4,2048]`.
    private func list(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let feature = request.queryValue("feature") ?? "popular"
        let page = request.queryValue("page").flatMap { Int($0) } ?? 1
        let pageSize = request.queryValue("rpp").flatMap { Int($0) } ?? DemoCatalogue.defaultPageSize
        guard page >= 1, pageSize >= 1 else { return APIResponses.error(400, "page and rpp must be positive") }
        return APIResponses.json(documents(for: request).list(
            page: page, pageSize: pageSize, feature: feature, sizes: Self.sizes(request)))
    }

    /// `GET /photos/ID[?image_size=S]`.
    private func single(_ request: HTTPServerRequest, id: Substring) -> HTTPServerResponse {
        guard let number = Int(id), let photo = catalogue.photo(id: number) else {
            return APIResponses.error(404, "No such photo: \(id)")
        }
        return APIResponses.json(CatalogueJSON.SinglePhoto(photo: documents(for: request).photo(photo, sizes: Self.sizes(request))))
    }

    /// `GET /photos/ID/comments?page=N`.
    private func comments(_ request: HTTPServerRequest, id: Substring) -> HTTPServerResponse {
        guard let number = Int(id), let photo = catalogue.photo(id: number) else {
            return APIResponses.error(404, "No such photo: \(id)")
        }
        let page = request.queryValue("page").flatMap { Int($0) } ?? 1
        guard page >= 1 else {
            return APIResponses.error(400, "page must be positive")
        }
        return APIResponses.json(documents(for: request).comments(of: photo, page: page))
    }

    /// The sizes asked for by `image_size=4,2048`, `image_size=4&image_size=2048` or
    /// `image_size[]=4`; unknown sizes are ignored and no known size means all of them.
    static func sizes(_ request: HTTPServerRequest) -> [DemoImageSize] {
        let values = request.queryValues("image_size") + request.queryValues("image_size[]") + request.queryValues("image_size%5B%5D")
        let sizes = Set(values.flatMap { $0.split(separator: ",") }.compactMap { Int($0) }.compactMap(DemoImageSize.init))
        return sizes.isEmpty ? DemoImageSize.allCases : sizes.sorted()
    }
}

/// The server's base URL, set once the socket is bound and read by every request (a class so the routes
/// and the starter share it).
final class BaseURLBox: Sendable {
    private let storage = Locked<String?>(nil)

    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
