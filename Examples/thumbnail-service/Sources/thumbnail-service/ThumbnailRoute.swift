import GalleryKit
import Hummingbird

/// `GET /thumb?url=URL&size=N&format=F`: the image at URL scaled so its longest edge is N pixels
/// (default 256), upright, as JPEG (`format=jpeg`, the default), PNG, WebP, or `auto` (PNG when it
/// has alpha, else JPEG), with the matching Content-Type. Every request goes through one shared `ImagePipeline`, so a
/// popular image is downloaded and decoded once, concurrent requests for it share that work,
/// and repeated requests are served from the decoded-image cache.
struct ThumbnailRoute: Sendable {
    let pipeline: ImagePipeline
    /// The largest edge served; bigger asks are refused with 400, not scaled.
    var maxEdge = 2048
    var jpegQuality = 85
    var webpQuality = 85

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let url = query.get("url").map({ String($0) }), !url.isEmpty else {
            return Self.text(.badRequest, "missing url parameter: /thumb?url=https://...&size=256")
        }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            return Self.text(.badRequest, "url must be http or https: \(url)")
        }
        let sizeText = query.get("size").map { String($0) } ?? "256"
        guard let edge = Int(sizeText), (1...maxEdge).contains(edge) else {
            return Self.text(.badRequest, "size must be a whole number of pixels in 1...\(maxEdge), not '\(sizeText)'")
        }
        let formatText = query.get("format").map { String($0) } ?? "jpeg"
        guard let format = ThumbnailFormat(rawValue: formatText) else {
            return Self.text(.badRequest, "format must be jpeg, png, webp or auto, not '\(formatText)'")
        }
        let bitmap: Bitmap
        do throws(ImagePipelineError) {
            bitmap = try await pipeline.image(url: url, size: .longestEdge(edge))
        } catch {
            switch error.stage {
            case .request: return Self.text(.badRequest, error.description)
            // The address rule refused where the URL leads (loopback, metadata service, private network).
            case .transfer where error.isAddressRefusal: return Self.text(.forbidden, error.description)
            // The image could not be fetched, or what came back is not a usable image.
            case .transfer, .decode: return Self.text(.badGateway, "upstream failure: \(error.description)")
            case .store: return Self.text(.internalServerError, error.description)
            }
        }
        let encoded = try Thumbnailer(jpegQuality: jpegQuality, format: format, webpQuality: webpQuality)
            .encode(bitmap, name: url)
        var headers = HTTPFields()
        headers[.contentType] = encoded.format.mediaType
        headers[.cacheControl] = "public, max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded.bytes)))
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

extension ImagePipelineError {
    /// The pipeline's address policy refused the address the URL (or a redirect) resolved to.
    var isAddressRefusal: Bool {
        if case .addressRefused? = transferError?.reason { return true }
        return false
    }
}
