import Foundation
import GalleryKit
import GallerySystem

extension ImageService {
    /// A stored result still good to serve: as is within the TTL; after it, once the source confirms
    /// it has not changed (a file's mtime and size; for a URL a conditional GET answered 304), with
    /// the check's time renewed. Nil when the source changed or could not confirm.
    func freshen(_ stored: StoredResult, key: String, source: ImageRequest.Source) async -> StoredResult? {
        let now = Date().timeIntervalSince1970
        if now - stored.header.checked < Double(configuration.ttl) { return stored }
        var confirmed = false
        switch source {
        case .file(let path):
            if let info = Syscall.regularFileStatus(path) {
                let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
                confirmed = stored.header.sourceValidator == Self.text(.file(modified: modified, size: Int64(info.st_size)))
            }
        case .url(let url):
            confirmed = await revalidate(url, validator: stored.header.sourceValidator)
            if !confirmed { pipeline.forget(url: url) }
        }
        guard confirmed else { return nil }
        var renewed = stored
        renewed.header.checked = now
        results.write(key, renewed)
        return renewed
    }

    /// A conditional GET with the validator the result was made from; true on 304 Not Modified.
    func revalidate(_ url: String, validator: String?) async -> Bool {
        guard let validator else { return false }
        let headers: HTTPHeaders
        if validator.hasPrefix("etag:") { headers = HTTPHeaders(["If-None-Match": String(validator.dropFirst(5))]) }
        else if validator.hasPrefix("modified:") { headers = HTTPHeaders(["If-Modified-Since": String(validator.dropFirst(9))]) }
        else { return false }
        metrics.revalidation()
        let request = pipeline.engine.request(HTTPRequest(url: url, headers: headers))
            .addressPolicy(pipeline.configuration.addressPolicy)
        guard let response = try? await request.response() else { return false }
        return response.status == 304
    }
}
