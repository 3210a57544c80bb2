import Foundation
import GalleryKit
import Hummingbird

/// The HTTP face of an ``ImageService``: imgproxy's processing URLs at `/`, `/info/...`, `/health`
/// and `/metrics`, one access-log line and one metrics sample per request.
public struct ServeRoutes: Sendable {
    public let service: ImageService
    let log: AccessLog?

    public init(service: ImageService) {
        self.service = service
        log = service.configuration.accessLog ? AccessLog() : nil
    }

    /// Registers every route on `router`.
    public func register<Context: RequestContext>(on router: Hummingbird.Router<Context>) {
        router.get("/health") { _, _ in "ok\n" }
        router.get("/metrics") { _, _ in
            Self.respond(200, "text/plain; version=0.0.4", Array(self.metricsText().utf8))
        }
        router.get("/info/**") { request, _ in await self.answer(request, info: true) }
        router.get("**") { request, _ in await self.answer(request, info: false) }
    }

    func answer(_ request: Request, info: Bool) async -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        var response: Response
        var cache = "-"
        do throws(ServeError) {
            if info {
                response = Self.respond(200, "application/json", try await service.info(path: String(path.dropFirst("/info".count))))
            } else {
                let answer = try await service.image(path: path, accept: request.headers[.accept],
                                                     ifNoneMatch: request.headers[.ifNoneMatch])
                cache = answer.cacheStatus
                var headers = HTTPFields()
                headers[.contentType] = answer.contentType
                headers[.eTag] = answer.etag
                headers[.cacheControl] = "public, max-age=\(service.configuration.ttl)"
                if answer.variesByAccept { headers[.vary] = "Accept" }
                headers[.init("X-Cache")!] = answer.cacheStatus
                response = Response(status: .init(code: answer.status), headers: headers,
                                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        } catch {
            response = Self.respond(error.status, "text/plain; charset=utf-8", Array((error.message + "\n").utf8))
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let bytes = response.body.contentLength ?? 0
        service.metrics.request(status: response.status.code, seconds: seconds, bytes: bytes)
        log?.line(method: "GET", path: path, status: response.status.code, seconds: seconds, bytes: bytes, cache: cache)
        return response
    }

    static func respond(_ status: Int, _ type: String, _ body: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .init(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    func metricsText() -> String {
        let p = service.pipeline.statistics
        let usage = service.results.usage
        return service.metrics.text(extra: [
            ("serve_decodes_total", "Decodes the pipeline ran.", "counter", Double(p.decodes)),
            ("serve_decoded_cache_hits_total", "Bitmaps served from the decoded-image cache.", "counter", Double(p.cacheHits)),
            ("serve_coalesced_total", "Pipeline requests that joined one in flight.", "counter", Double(p.coalesced)),
            ("serve_source_downloads_total", "Sources downloaded.", "counter", Double(p.downloads)),
            ("serve_bytes_in_total", "Source bytes downloaded.", "counter", Double(p.bytesDownloaded)),
            ("serve_result_cache_entries", "Results held by the result cache.", "gauge", Double(usage.count)),
            ("serve_result_cache_bytes", "Bytes held by the on-disk result cache.", "gauge", Double(usage.bytes)),
            ("serve_decode_megapixels_in_use", "Megapixels of decodes running now.", "gauge", service.budget.used),
        ])
    }
}

/// One JSON line per request on standard error.
struct AccessLog: Sendable {
    func line(method: String, path: String, status: Int, seconds: Double, bytes: Int, cache: String) {
        let object: [String: Any] = ["time": ISO8601DateFormatter().string(from: Date()), "method": method, "path": path,
                                     "status": status, "ms": (seconds * 1e5).rounded() / 100, "bytes": bytes, "cache": cache]
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        data.append(0x0A)
        FileHandle.standardError.write(data)
    }
}
