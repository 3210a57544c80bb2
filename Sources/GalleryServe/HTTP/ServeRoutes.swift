import Foundation
import GalleryHTTPServer
import GalleryKit

/// The HTTP face of an ``ImageService``: imgproxy's processing URLs at `/`, `/info/...`, `/health`
/// and `/metrics`, one access-log line and one metrics sample per request.
public struct ServeRoutes: Sendable {
    public let service: ImageService
    let log: AccessLog?

    public init(service: ImageService) {
        self.service = service
        log = service.configuration.accessLog ? AccessLog() : nil
    }

    /// The answer to one request (GET; HEAD is answered as GET without the body).
    public func respond(to request: HTTPServerRequest) async -> HTTPServerResponse {
        guard request.method == "GET" || request.isHead else { return .text(405, "only GET and HEAD are served\n") }
        let path = request.path
        if path == "/health" { return .text(200, "ok\n") }
        if path == "/metrics" { return .text(200, metricsText(), contentType: "text/plain; version=0.0.4") }
        if path.hasPrefix("/info/") { return await answer(request, info: true) }
        return await answer(request, info: false)
    }

    func answer(_ request: HTTPServerRequest, info: Bool) async -> HTTPServerResponse {
        let started = ContinuousClock.now
        let path = request.path
        var response: HTTPServerResponse
        var cache = "-"
        do throws(ServeError) {
            if info {
                response = HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json")],
                                              body: .bytes(try await service.info(path: String(path.dropFirst("/info".count)))))
            } else {
                let answer = try await service.image(path: path, accept: request.header("Accept"),
                                                     ifNoneMatch: request.header("If-None-Match"))
                cache = answer.cacheStatus
                var headers: [(name: String, value: String)] = [
                    ("Content-Type", answer.contentType), ("ETag", answer.etag),
                    ("Cache-Control", "public, max-age=\(service.configuration.ttl)"),
                ]
                if answer.variesByAccept { headers.append(("Vary", "Accept")) }
                headers.append(("X-Cache", answer.cacheStatus))
                response = HTTPServerResponse(status: answer.status, headers: headers, body: .bytes(answer.body))
            }
        } catch {
            response = .text(error.status, error.message + "\n")
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let bytes = response.forbidsBody ? 0 : response.body.count
        service.metrics.request(status: response.status, seconds: seconds, bytes: bytes)
        log?.line(method: request.method, path: path, status: response.status, seconds: seconds, bytes: bytes, cache: cache)
        return response
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
