import Foundation
import GalleryKit

extension ImageService {
    /// The work of a result-cache miss: the pipeline's bitmap, the resize steps, the encode, the store.
    /// With `refetched` the bitmap is made from the bytes a revalidation already brought, not downloaded again.
    func render(_ options: ProcessingOptions, source: ImageRequest.Source, format wanted: ProcessingOptions.OutputFormat?,
                quality: Int, key: String, negotiated: Bool, refetched: Refetched? = nil) async throws(ServeError) -> Answer {
        if case .url(let url) = source, let info = pipeline.sourceInfo(for: source),
           Date().timeIntervalSince(info.loaded) >= Double(configuration.ttl) {
            pipeline.forget(url: url)  // past its lifetime: fetch it again rather than trust the decoded cache
        }
        let resize = Resize(options: options)
        let started = ContinuousClock.now
        let bitmap: Bitmap
        let info: ImageSourceInfo?
        do throws(ImagePipelineError) {
            (bitmap, info) = try await budget.withRoom(for: resize.pipelineSize, options: options) { () async throws(ImagePipelineError) in
                let request = ImageRequest(source: source, size: resize.pipelineSize)
                guard let refetched else { return try await pipeline.imageAndSource(for: request) }
                let (bitmap, info) = try await pipeline.imageAndSource(for: request, original: refetched.bytes,
                                                                       validator: refetched.validator)
                return (bitmap, info)
            }
        } catch {
            throw Self.serveError(error)
        }
        metrics.decoded(seconds: (ContinuousClock.now - started) / .seconds(1))
        // Enlarging and forcing can make far more pixels than the source had: the same megapixel limit applies
        // to the result, and blur (a float copy of every pixel) stops at 16 MP.
        let bound = resize.pixelBound(from: bitmap)
        guard bound <= Double(configuration.maxSourcePixels) else {
            throw ServeError(status: 413, "the result of \(options.normalized) for \(source) would have \(Int(bound / 1e6)) MP, over the \(configuration.maxSourcePixels / 1_000_000) MP limit")
        }
        guard options.blur == 0 || bound <= 16e6 else {
            throw ServeError(status: 413, "blur on a result of \(Int(bound / 1e6)) MP for \(source): blur is limited to 16 MP")
        }
        let format = wanted ?? Self.keptFormat(info?.format)
        let resampler = pipeline.configuration.resampler
        let encoded: [UInt8]
        do {
            encoded = try await pipeline.onWorkers { () throws -> [UInt8] in
                let final = resize.finish(bitmap, resampler: resampler)
                switch format {
                case .jpeg: return try ImageEncoder.encodeJPEG(final, quality: max(1, quality))
                case .png: return try ImageEncoder.encodePNG(final)
                case .webp: return try ImageEncoder.encodeWebP(final, quality: quality)
                case .avif: return try ImageEncoder.encodeAVIF(final, quality: quality)
                }
            }
        } catch is CancellationError {
            throw ServeError(status: 503, "cancelled while encoding \(source)")
        } catch {
            throw ServeError(status: 500, "encoding \(source) as \(format.rawValue): \(error)")
        }
        // A source without a validator (no ETag, no Last-Modified) is known by what it gave: the result's own bytes
        // go into the ETag, so once the image changes a client's old tag never gets a 304.
        let validator = info?.validator.map(Self.text) ?? "result:" + SHA256.hex(encoded)
        let etag = "\"" + SHA256.hex(Array("\(validator)|\(options.normalized)|q\(quality)|\(format.rawValue)".utf8)).prefix(32) + "\""
        let stored = StoredResult(header: .init(contentType: format.mediaType, etag: etag, sourceValidator: info?.validator.map(Self.text),
                                                checked: Date().timeIntervalSince1970), body: encoded)
        await results.write(key, stored)
        return Answer(status: 200, contentType: format.mediaType, body: encoded, etag: etag, variesByAccept: negotiated, cacheStatus: "miss")
    }

    /// The source's format when the service can write it; GIF becomes PNG, HEIC and unknown JPEG.
    static func keptFormat(_ format: ImageFormat?) -> ProcessingOptions.OutputFormat {
        switch format {
        case .png?, .gif?: .png
        case .webp?: .webp
        case .avif?: .avif
        default: .jpeg
        }
    }

    static func text(_ validator: ImageCacheKey.Validator) -> String {
        switch validator {
        case .etag(let tag): "etag:" + tag
        case .lastModified(let date): "modified:" + date
        case .file(let modified, let size): "file:\(modified):\(size)"
        }
    }

    /// The HTTP answer for a pipeline failure: 4xx for what the client or the source got wrong, 5xx for ours.
    static func serveError(_ error: ImagePipelineError) -> ServeError {
        switch error.reason {
        case .invalidRequest(let why): return .badRequest("\(error.source): \(why)")
        case .cancelled: return ServeError(status: 503, "\(error.source): cancelled")
        case .store(let failure): return ServeError(status: 500, "\(error.source): \(failure)")
        case .decode(let failure):
            if case .tooLarge = failure { return ServeError(status: 413, "source image is too large: \(failure)") }
            if case .io = failure { return .notFound("\(failure)") }
            return ServeError(status: 422, "source image cannot be decoded: \(failure)")
        case .transfer(let failure):
            switch failure.reason {
            case .addressRefused: return .forbidden("source \(error.source): \(failure.reasonText)")
            case .bodyTooLarge: return ServeError(status: 413, "source \(error.source) is too large: \(failure.reasonText)")
            case .timedOut, .tooSlow, .cannotFinishInTime: return ServeError(status: 504, "source \(error.source): \(failure.reasonText)")
            case .httpStatus(404), .httpStatus(410): return .notFound("source \(error.source) answered \(failure.status ?? 404)")
            case .notAnImage, .decodingFailed, .unacceptableContentType:
                return ServeError(status: 422, "source \(error.source) is not an image: \(failure.reasonText)")
            case .cancelled, .engineStopped: return ServeError(status: 503, "source \(error.source): \(failure.reasonText)")
            default: return ServeError(status: 502, "source \(error.source): \(failure.reasonText)")
            }
        }
    }
}
