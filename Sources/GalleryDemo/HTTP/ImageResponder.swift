import GalleryHTTPServer

/// Serves `/images/ID/SIZE.EXT`: the cached file with a strong ETag, Last-Modified and
/// `Accept-Ranges: bytes`, answering Range, If-Range, If-None-Match and If-Modified-Since per
/// ``RangeDecision``. The body goes from the file to the socket by sendfile.
struct ImageResponder: Sendable {
    let catalogue: DemoCatalogue
    let store: DemoImageStore

    func respond(to request: HTTPServerRequest, id: Substring, file: Substring) async -> HTTPServerResponse {
        guard let id = Int(id),
              let photo = catalogue.photo(id: id),
              let (size, fileExtension) = Self.parse(file: String(file)),
              fileExtension == photo.format.fileExtension
        else { return APIResponses.error(404, "No such image: \(request.path)") }
        do throws(DemoError) {
            if let variant = catalogue.variantPhoto(of: photo) {
                return try await respondSynthetic(photo, variant: variant, size: size, to: request)
            }
            let image = try await store.image(for: photo, size: size)
            return Self.answer(request, validators: image.validators, mediaType: image.format.mediaType) { range in
                guard let range else { return .file(path: image.path, offset: 0, count: image.validators.length) }
                return .file(path: image.path, offset: Int64(range.lowerBound), count: range.count)
            }
        } catch {
            return .text(500, "\(error)\n")
        }
    }

    /// A synthetic catalogue's photo: its variant's cached rendering with a comment naming the photo
    /// (``SyntheticImage``), built in memory (about 50 kB) and answered with the same conditional and
    /// range rules as a file.
    private func respondSynthetic(_ photo: DemoPhoto, variant: DemoPhoto, size: DemoImageSize,
                                  to request: HTTPServerRequest) async throws(DemoError) -> HTTPServerResponse {
        let image = try await store.image(for: variant, size: size)
        let bytes = try SyntheticImage.bytes(of: photo.id, from: image.path)
        let tag = image.validators.entityTag.dropFirst().dropLast()
        let validators = RepresentationValidators(length: bytes.count, entityTag: "\"syn\(photo.id)-\(tag)\"",
                                                  lastModified: image.validators.lastModified)
        return Self.answer(request, validators: validators, mediaType: image.format.mediaType) { range in
            .bytes(range.map { Array(bytes[$0]) } ?? bytes)
        }
    }

    /// One image answered with validators, `Accept-Ranges: bytes` and the conditional and range rules of
    /// ``RangeDecision``; `body` gives the whole representation (nil) or one range of it (the server leaves
    /// it out of a HEAD answer).
    private static func answer(_ request: HTTPServerRequest, validators: RepresentationValidators, mediaType: String,
                               body: (ClosedRange<Int>?) -> HTTPServerResponse.Body) -> HTTPServerResponse {
        var response = HTTPServerResponse(status: 200, headers: [
            ("ETag", validators.entityTag),
            ("Last-Modified", validators.lastModifiedText),
            ("Accept-Ranges", "bytes"),
            // Derived images never change for a given URL within one cache version.
            ("Cache-Control", "public, max-age=86400"),
        ])
        let ifNoneMatch = request.headerValues("If-None-Match")
        let conditions = ConditionalRequest(
            range: request.header("Range"), ifRange: request.header("If-Range"),
            ifNoneMatch: ifNoneMatch.isEmpty ? nil : ifNoneMatch.joined(separator: ","),
            ifModifiedSince: request.header("If-Modified-Since"))
        switch RangeDecision.decide(conditions, for: validators) {
        case .notModified:
            response.status = 304
        case .unsatisfiable:
            response.status = 416
            response[header: "Content-Range"] = "bytes */\(validators.length)"
            response[header: "Content-Length"] = "0"
        case .full:
            response[header: "Content-Type"] = mediaType
            response[header: "Content-Length"] = String(validators.length)
            response.body = body(nil)
        case let .partial(range):
            response.status = 206
            response[header: "Content-Type"] = mediaType
            response[header: "Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound)/\(validators.length)"
            response[header: "Content-Length"] = String(range.count)
            response.body = body(range)
        }
        return response
    }

    /// `2048.jpg` -> (.full, "jpg").
    static func parse(file: String) -> (DemoImageSize, String)? {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let raw = Int(parts[0]), let size = DemoImageSize(rawValue: raw) else { return nil }
        return (size, String(parts[1]))
    }
}
