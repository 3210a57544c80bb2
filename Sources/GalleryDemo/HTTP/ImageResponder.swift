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
        return try await Self.answer(request, validators: image.validators, mediaType: image.format.mediaType) { range in
            if let range { return try await fileIO.loadFile(path: image.path, range: range, context: context) }
            return try await fileIO.loadFile(path: image.path, context: context)
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
        return try await Self.answer(request, validators: validators, mediaType: image.format.mediaType) { range in
            ResponseBody(byteBuffer: ByteBuffer(bytes: range.map { bytes[$0] } ?? bytes[...]))
        }
    }

    /// One image answered with validators, `Accept-Ranges: bytes` and the conditional and range rules of
    /// ``RangeDecision``; `body` gives the whole representation (nil) or one range of it, and is not
    /// asked for on a HEAD request.
    private static func answer(_ request: Request, validators: RepresentationValidators, mediaType: String,
                               body: (ClosedRange<Int>?) async throws -> ResponseBody) async throws -> Response {
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
            headers[.contentType] = mediaType
            headers[.contentLength] = String(validators.length)
            return Response(status: .ok, headers: headers, body: isHead ? ResponseBody() : try await body(nil))
        case let .partial(range):
            headers[.contentType] = mediaType
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(validators.length)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: isHead ? ResponseBody() : try await body(range))
        }
    }

    /// `2048.jpg` -> (.full, "jpg").
    static func parse(file: String) -> (DemoImageSize, String)? {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let raw = Int(parts[0]), let size = DemoImageSize(rawValue: raw) else { return nil }
        return (size, String(parts[1]))
    }
}
