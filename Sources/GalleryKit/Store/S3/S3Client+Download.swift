import Foundation
import GalleryTransfer

extension S3Client {
    /// Fetches the object `key` into the file at `path`, streamed to disk (a large object is never held
    /// whole in memory), resumed with `Range` when an attempt is cut, and published by rename only once
    /// its length checks: nothing at `path` is ever part of the object. Returns the bytes written, or
    /// nil when there is no such key (a HEAD asks first; a missing bucket or refused keys throw).
    ///
    /// `maxBytes` bounds the object (default 64 GiB), instead of the engine's cap for photos.
    public func download(key: String, to path: String, maxBytes: Int64 = 64 << 30) async throws(S3Error) -> Int64? {
        guard try await head(key: key) != nil else { return nil }
        var request = DownloadRequest(url: endpoint.url(bucket: bucket, key: key), destination: path)
        request.headers.set("x-amz-content-sha256", Self.emptyPayloadHash)
        request.awsSignature = signature
        request.maxBodyBytes = maxBytes
        do {
            return try await engine.download(request).bytes
        } catch {
            switch error.status {
            case 403: throw .accessDenied(bucket: bucket, key: key, code: "HTTP 403")
            // Gone between the HEAD and the GET: as missing as before it.
            case 404: return nil
            default:
                throw .transfer(bucket: bucket, key: key, operation: "GET", detail: error.description, status: error.status)
            }
        }
    }
}
