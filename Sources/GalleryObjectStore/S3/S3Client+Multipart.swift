import Foundation
import GalleryTransfer

/// A multipart upload under way (see ``S3Client/listMultipartUploads(prefix:)``).
public struct S3MultipartUpload: Sendable, Equatable {
    public var key: String
    public var uploadID: String
}

extension S3Client {
    /// Creates the upload, sends the parts (``S3MultipartPolicy/partsInFlight`` at once, each with its
    /// own hash and the engine's retries), then completes it with every part's ETag in order. Any failure
    /// (or cancellation) aborts the upload before the error is thrown.
    func uploadMultipart(key: String, path: String, size: Int64, contentType: String, cacheControl: String?,
                         ifNoneMatch: Bool) async throws(S3Error) -> S3PutResult {
        let upload = try await createUpload(key: key, contentType: contentType, cacheControl: cacheControl)
        do {
            let etags = try await uploadParts(upload, path: path, size: size)
            let result = try await complete(upload, etags: etags, ifNoneMatch: ifNoneMatch)
            // Another writer completed the key first: this upload's parts are dropped.
            if result == .alreadyExisted { try? await abort(upload) }
            return result
        } catch {
            // Not cancelled with the caller: the abort must still reach the store.
            let client = self
            await Task { try? await client.abort(upload) }.value
            throw error
        }
    }

    /// Begins an upload; type and cache policy are the object's.
    func createUpload(key: String, contentType: String, cacheControl: String?) async throws(S3Error) -> S3MultipartUpload {
        var headers = HTTPHeaders()
        headers.set("Content-Type", contentType)
        if let cacheControl { headers.set("Cache-Control", cacheControl) }
        let created = try await send("create multipart upload", .post, key: key, query: [("uploads", "")], headers: headers)
        guard (200..<300).contains(created.status) else { throw failure("create multipart upload", key, created) }
        guard let uploadID = (try? S3XML.parse(created.body))?.value("UploadId"), !uploadID.isEmpty else {
            throw .invalidResponse(bucket: bucket, key: key, operation: "create multipart upload", reason: "no UploadId in \(created.text.prefix(200))")
        }
        return S3MultipartUpload(key: key, uploadID: uploadID)
    }

    func uploadParts(_ upload: S3MultipartUpload, path: String, size: Int64) async throws(S3Error) -> [String] {
        let partSize = multipart.partSize(forFileOf: size)
        let count = Int((size + partSize - 1) / partSize)
        let inFlight = multipart.partsInFlight
        let client = self
        do {
            return try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var etags = [String](repeating: "", count: count)
                var next = 0
                func start() {
                    let number = next + 1
                    next += 1
                    group.addTask {
                        let offset = Int64(number - 1) * partSize
                        let bytes = try S3Client.read(path, offset: offset, count: Int(min(partSize, size - offset)))
                        return (number, try await client.uploadPart(upload, number: number, of: count, bytes: bytes))
                    }
                }
                while next < min(inFlight, count) { start() }
                while let (number, etag) = try await group.next() {
                    etags[number - 1] = etag
                    if next < count { start() }
                }
                return etags
            }
        } catch let error as S3Error {
            throw error
        } catch {
            throw .transfer(bucket: bucket, key: upload.key, operation: "multipart upload", detail: "\(error)", status: nil)
        }
    }

    func uploadPart(_ upload: S3MultipartUpload, number: Int, of count: Int?, bytes: [UInt8]) async throws(S3Error) -> String {
        let operation = count.map { "upload part \(number) of \($0)" } ?? "upload part \(number)"
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/octet-stream")
        let response = try await send(operation, .put, key: upload.key,
                                      query: [("partNumber", String(number)), ("uploadId", upload.uploadID)],
                                      headers: headers, body: bytes)
        guard (200..<300).contains(response.status) else { throw failure(operation, upload.key, response) }
        guard let etag = response.headers["ETag"], !etag.isEmpty else {
            throw .invalidResponse(bucket: bucket, key: upload.key, operation: operation, reason: "no ETag header")
        }
        return etag
    }

    /// Completes an upload. With `ifNoneMatch` a HEAD first looks for an object another writer published
    /// while the parts went up, and the completion carries `If-None-Match: *` (AWS honours it; Ceph RGW
    /// 16.2 ignores it on a completion, so there only the HEAD guards, leaving the moment between the two).
    func complete(_ upload: S3MultipartUpload, etags: [String], ifNoneMatch: Bool) async throws(S3Error) -> S3PutResult {
        if ifNoneMatch, try await head(key: upload.key) != nil { return .alreadyExisted }
        var xml = "<CompleteMultipartUpload>"
        for (index, etag) in etags.enumerated() {
            xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(Self.escape(etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        var headers = HTTPHeaders()
        headers.set("Content-Type", "application/xml")
        if ifNoneMatch { headers.set("If-None-Match", "*") }
        let response = try await send("complete multipart upload", .post, key: upload.key,
                                      query: [("uploadId", upload.uploadID)], headers: headers, body: Array(xml.utf8))
        if ifNoneMatch, response.status == 412 { return .alreadyExisted }
        guard (200..<300).contains(response.status) else { throw failure("complete multipart upload", upload.key, response) }
        // S3 may answer 200 and report the failure in the body.
        if let document = try? S3XML.parse(response.body), document.name == "Error" {
            throw .service(bucket: bucket, key: upload.key, operation: "complete multipart upload", status: response.status,
                           code: document.value("Code") ?? "(no error code)", message: document.value("Message") ?? "")
        }
        return .created
    }

    /// Aborts an upload: the store drops its parts. Aborting one already gone succeeds.
    public func abort(_ upload: S3MultipartUpload) async throws(S3Error) {
        let response = try await send("abort multipart upload", .delete, key: upload.key, query: [("uploadId", upload.uploadID)])
        if response.status == 404 { return }
        guard (200..<300).contains(response.status) else { throw failure("abort multipart upload", upload.key, response) }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// When ``S3Client/putFile(key:path:contentType:cacheControl:ifNoneMatch:)`` splits an upload, and how.
/// S3 takes parts of at least 5 MiB (but the last) and at most 10,000 parts; the part size grows
/// past `partSize` when a file would need more.
public struct S3MultipartPolicy: Sendable, Equatable {
    /// Files of this many bytes or more go up in parts (default 16 MiB).
    public var threshold: Int64
    /// The size of each part but the last (default 8 MiB, at least 5 MiB).
    public var partSize: Int64
    /// Parts uploaded at once for one file (default 4).
    public var partsInFlight: Int

    /// S3's smallest part but the last.
    public static let minimumPartSize: Int64 = 5 << 20
    /// S3's most parts in one upload.
    public static let maximumParts: Int64 = 10_000

    /// A policy; `partSize` is raised to 5 MiB, `partsInFlight` to 1.
    public init(threshold: Int64 = 16 << 20, partSize: Int64 = 8 << 20, partsInFlight: Int = 4) {
        self.threshold = max(1, threshold)
        self.partSize = max(Self.minimumPartSize, partSize)
        self.partsInFlight = max(1, partsInFlight)
    }

    /// The part size for a file of `size` bytes: `partSize`, or more when that would make too many parts.
    func partSize(forFileOf size: Int64) -> Int64 {
        max(partSize, (size + Self.maximumParts - 1) / Self.maximumParts)
    }
}
