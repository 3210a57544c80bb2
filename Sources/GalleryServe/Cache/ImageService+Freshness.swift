import Foundation
import GalleryKit
import GallerySystem

extension ImageService {
    /// A source's bytes that a revalidation brought back (the origin answered 200, not 304): the
    /// render uses them instead of downloading the source a second time.
    struct Refetched: Sendable {
        var bytes: [UInt8]
        var validator: ImageCacheKey.Validator?
    }

    /// What a stored result's source says.
    enum Freshness: Sendable {
        /// Serve it: within the TTL, or confirmed unchanged (then with the check's time renewed).
        case fresh(StoredResult)
        /// Render again: the source changed or could not confirm; with its new bytes when the check brought them.
        case stale(Refetched?)
    }

    /// A stored result as is within the TTL; after it, the source is asked (a file's mtime and size;
    /// for a URL a conditional GET, where 304 confirms and 200 brings the new version).
    func freshen(_ stored: StoredResult, key: String, source: ImageRequest.Source) async -> Freshness {
        let now = Date().timeIntervalSince1970
        if now - stored.header.checked < Double(configuration.ttl) { return .fresh(stored) }
        switch source {
        case .file(let path):
            guard let info = Syscall.regularFileStatus(path) else { return .stale(nil) }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            guard stored.header.sourceValidator == Self.text(.file(modified: modified, size: Int64(info.st_size))) else {
                return .stale(nil)
            }
        case .url(let url):
            switch await revalidate(url, validator: stored.header.sourceValidator) {
            case .notModified: break
            case .changed(let refetched):
                pipeline.forget(url: url)
                return .stale(refetched)
            case .unknown:
                pipeline.forget(url: url)
                return .stale(nil)
            }
        }
        var renewed = stored
        renewed.header.checked = now
        await results.write(key, renewed)
        return .fresh(renewed)
    }

    enum Revalidation: Sendable {
        case notModified
        /// 200 with an image body: the source's new version.
        case changed(Refetched)
        /// No validator to ask with, a failure or an answer that is neither: the render fetches it as new.
        case unknown
    }

    /// A conditional GET with the validator the result was made from.
    func revalidate(_ url: String, validator: String?) async -> Revalidation {
        guard let validator else { return .unknown }
        let headers: HTTPHeaders
        if validator.hasPrefix("etag:") { headers = HTTPHeaders(["If-None-Match": String(validator.dropFirst(5))]) }
        else if validator.hasPrefix("modified:") { headers = HTTPHeaders(["If-Modified-Since": String(validator.dropFirst(9))]) }
        else { return .unknown }
        metrics.revalidation()
        let request = pipeline.engine.request(HTTPRequest(url: url, headers: headers))
            .addressPolicy(pipeline.configuration.addressPolicy)
        guard let response = try? await request.response() else { return .unknown }
        if response.status == 304 { return .notModified }
        guard response.status == 200, ImageFormat.sniff(response.body) != nil else { return .unknown }
        let current: ImageCacheKey.Validator? = response.headers["ETag"].map { .etag($0) }
            ?? response.headers["Last-Modified"].map { .lastModified($0) }
        return .changed(Refetched(bytes: response.body, validator: current))
    }
}
