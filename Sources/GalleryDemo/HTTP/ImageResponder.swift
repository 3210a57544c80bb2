import Hummingbird

/// Serves `/images/ID/SIZE.EXT`: the cached file with a strong ETag, Last-Modified and
/// `Accept-Ranges: bytes`, answering Range, If-Range, If-None-Match and If-Modified-Since per
/// ``RangeDecision``. The body is streamed from disk by Hummingbird's `FileIO`.
struct ImageResponder: Sendable {
    let catalogue: DemoCatalogue
    let store: DemoImageStore
    let fileIO = FileIO()

    func respond(to request: Request, context: some RequestContext) async throws -> Response {
        guard let id = context.parameters.get("id", as: Int.self),
              let file = context.parameters.get("file"),
              let photo = catalogue.photo(id: id),
              let (size, fileExtension) = Self.parse(file: file),
              fileExtension == photo.format.fileExtension
        else { return APIResponses.error(.notFound, "No such image: \(request.uri.path)") }

        if let variant = catalogue.variantPhoto(of: photo) {
            return try await respondSynthetic(photo, variant: variant, size: size, to: request)
        }
        let image = try await store.image(for: photo, size: size)
        let validators = image.validators
        var headers = HTTPFields()
        headers[.eTag] = validators.entityTag
        headers[.lastModified] = validators.lastModifiedText
        headers[.acceptRanges] = "bytes"
        // Derived images never change for a given URL within one cache version.
        headers[.cacheControl] = "public, max-age=86400"

        let conditions = ConditionalRequest(
            range: request.headers[.range], ifRange: request.headers[.ifRange],
            ifNoneMatch: request.headers[values: .ifNoneMatch].isEmpty
                ? nil : request.headers[values: .ifNoneMatch].joined(separator: ","),
            ifModifiedSince: request.headers[.ifModifiedSince]
        )
        let isHead = request.method == .head
        switch RangeDecision.decide(conditions, for: validators) {
        case .notModified:
            return Response(status: .notModified, headers: headers)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(validators.length)"
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .full:
            headers[.contentType] = image.format.mediaType
            headers[.contentLength] = String(validators.length)
            let body = isHead ? ResponseBody() : try await fileIO.loadFile(path: image.path, context: context)
            return Response(status: .ok, headers: headers, body: body)
        case let .partial(range):
            headers[.contentType] = image.format.mediaType
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(validators.length)"
            headers[.contentLength] = String(range.count)
            let body = isHead ? ResponseBody() : try await fileIO.loadFile(path: image.path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
    }

    /// A synthetic catalogue's photo: its variant's cached rendering with a comment naming the photo
    /// (``SyntheticImage``), built in memory (about 50 kB) and answered with the same conditional and
    /// range rules as a file.
    private func respondSynthetic(_ photo: DemoPhoto, variant: DemoPhoto, size: DemoImageSize,
                                  to request: Request) async throws -> Response {
        let image = try await store.image(for: variant, size: size)
        let bytes = try SyntheticImage.bytes(of: photo.id, from: image.path)
        let tag = image.validators.entityTag.dropFirst().dropLast()
        let validators = RepresentationValidators(length: bytes.count, entityTag: "\"syn\(photo.id)-\(tag)\"",
                                                  lastModified: image.validators.lastModified)
        var headers = HTTPFields()
        headers[.eTag] = validators.entityTag
        headers[.lastModified] = validators.lastModifiedText
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "public, max-age=86400"
        let conditions = ConditionalRequest(
            range: request.headers[.range], ifRange: request.headers[.ifRange],
            ifNoneMatch: request.headers[values: .ifNoneMatch].isEmpty
                ? nil : request.headers[values: .ifNoneMatch].joined(separator: ","),
            ifModifiedSince: request.headers[.ifModifiedSince]
        )
        let isHead = request.method == .head
        switch RangeDecision.decide(conditions, for: validators) {
        case .notModified:
            return Response(status: .notModified, headers: headers)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(validators.length)"
            headers[.contentLength] = "0"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .full:
            headers[.contentType] = image.format.mediaType
            headers[.contentLength] = String(bytes.count)
            return Response(status: .ok, headers: headers,
                            body: isHead ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case let .partial(range):
            headers[.contentType] = image.format.mediaType
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(validators.length)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers,
                            body: isHead ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes[range])))
        }
    }

    /// `2048.jpg` -> (.full, "jpg").
    static func parse(file: String) -> (DemoImageSize, String)? {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let raw = Int(parts[0]), let size = DemoImageSize(rawValue: raw) else { return nil }
        return (size, String(parts[1]))
    }
}
