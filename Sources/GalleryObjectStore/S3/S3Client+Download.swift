import Foundation
import GalleryTransfer

extension S3Client {
    /// Streams the object at `key` into the file at `path` through the engine's downloader: the body
    /// goes to `path.part` as it arrives (memory stays flat whatever the object's size), an attempt cut
    /// short is resumed with `Range`/`If-Range` by the next one, and the file appears at `path` by rename
    /// only once its length is the one the store announced. On any failure nothing is at `path` (a
    /// partial may stay as `path.part`, never taken for the object). Returns the bytes written, or nil
    /// when there is no such key; refused keys throw.
    ///
    /// `maxBytes` bounds the object (default 64 GiB: a plan or a shard part), instead of the engine's cap
    /// for photos.
    public func download(key: String, to path: String, maxBytes: Int64 = 64 << 30) async throws(S3Error) -> Int64? {
        var request = DownloadRequest(url: endpoint.url(bucket: bucket, key: key), destination: path,
                                      headers: ["x-amz-content-sha256": Self.emptyPayloadHash])
        request.awsSignature = signature
        request.maxBodyBytes = maxBytes
        do {
            return try await engine.download(request).bytes
        } catch {
            switch error.status {
            case 404?: return nil
            case 403?: throw .accessDenied(bucket: bucket, key: key, code: "HTTP 403")
            default:
                if case .fileSystem(let file, let message) = error.reason { throw .file(path: file, reason: message) }
                throw .transfer(bucket: bucket, key: key, operation: "GET", detail: error.description, status: error.status)
            }
        }
    }
}
