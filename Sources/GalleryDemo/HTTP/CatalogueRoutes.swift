import Hummingbird
import GallerySync

/// The 500px-style JSON endpoints and the image route, registered on one router.
struct CatalogueRoutes: Sendable {
    let catalogue: DemoCatalogue
    let images: ImageResponder
    /// `http://127.0.0.1:PORT`, known only once the socket is bound.
    let baseURL: BaseURLBox

    func register(on router: Router<BasicRequestContext>) {
        router.get("/photos") { request, context in self.list(request, context) }
        router.get("/photos/:id") { request, context in self.single(request, context) }
        router.get("/photos/:id/comments") { request, context in self.comments(request, context) }
        router.get("/images/:id/:file") { request, context in try await self.images.respond(to: request, context: context) }
        router.head("/images/:id/:file") { request, context in try await self.images.respond(to: request, context: context) }
    }

    private func documents(for request: Request) -> CatalogueDocuments {
        // Before onServerRunning has stored the port (a request racing the bind), the Host
        // header is the next best answer.
        let base = baseURL.value ?? "http://\(request.head.authority ?? "127.0.0.1")"
        return CatalogueDocuments(catalogue: catalogue, baseURL: base)
    }

    /// `GET /photos?feature=popular&page=N&rpp=50[&image_size=4,2048]`.
    private func list(_ request: Request, _ context: BasicRequestContext) -> Response {
        let query = request.uri.queryParameters
        let feature = query.get("feature") ?? "popular"
        let page = query.get("page", as: Int.self) ?? 1
        let pageSize = query.get("rpp", as: Int.self) ?? DemoCatalogue.defaultPageSize
        guard page >= 1, pageSize >= 1 else { return APIResponses.error(.badRequest, "page and rpp must be positive") }
        return APIResponses.json(documents(for: request).list(
            page: page, pageSize: pageSize, feature: feature, sizes: Self.sizes(query)))
    }

    /// `GET /photos/ID[?image_size=S]`.
    private func single(_ request: Request, _ context: BasicRequestContext) -> Response {
        guard let id = context.parameters.get("id", as: Int.self), let photo = catalogue.photo(id: id) else {
            return APIResponses.error(.notFound, "No such photo: \(context.parameters.get("id") ?? "")")
        }
        let sizes = Self.sizes(request.uri.queryParameters)
        return APIResponses.json(CatalogueJSON.SinglePhoto(photo: documents(for: request).photo(photo, sizes: sizes)))
    }

    /// `GET /photos/ID/comments?page=N`.
    private func comments(_ request: Request, _ context: BasicRequestContext) -> Response {
        guard let id = context.parameters.get("id", as: Int.self), let photo = catalogue.photo(id: id) else {
            return APIResponses.error(.notFound, "No such photo: \(context.parameters.get("id") ?? "")")
        }
        let page = request.uri.queryParameters.get("page", as: Int.self) ?? 1
        guard page >= 1 else { return APIResponses.error(.badRequest, "page must be positive") }
        return APIResponses.json(documents(for: request).comments(of: photo, page: page))
    }

    /// The sizes asked for by `image_size=4,2048`, `image_size=4&image_size=2048` or
    /// `image_size[]=4`; unknown sizes are ignored and no known size means all of them.
    static func sizes(_ query: Parameters) -> [DemoImageSize] {
        let values = query.getAll("image_size") + query.getAll("image_size[]") + query.getAll("image_size%5B%5D")
        let sizes = Set(values.flatMap { $0.split(separator: ",") }.compactMap { Int($0) }.compactMap(DemoImageSize.init))
        return sizes.isEmpty ? DemoImageSize.allCases : sizes.sorted()
    }
}

/// The server's base URL, set once from Hummingbird's on-running callback and read by every
/// request (a class so the routes and the callback share it).
final class BaseURLBox: Sendable {
    private let storage = Locked<String?>(nil)

    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
