import GalleryTransfer

/// One page of a ListObjectsV2 listing.
public struct S3ListPage: Sendable, Equatable {
    /// The objects of this page, in key order.
    public var objects: [S3ObjectInfo]
    /// Pass to the next ``S3Client/listPage(prefix:continuationToken:maxKeys:)``; nil on the last page.
    public var continuationToken: String?
}

extension S3Client {
    /// Every object whose key starts with `prefix`, in key order, read `pageSize` keys a request
    /// (ListObjectsV2 pages followed by their continuation tokens).
    public func list(prefix: String, pageSize: Int = 1000) async throws(S3Error) -> [S3ObjectInfo] {
        var objects: [S3ObjectInfo] = []
        var token: String?
        repeat {
            let page = try await listPage(prefix: prefix, continuationToken: token, maxKeys: pageSize)
            objects += page.objects
            token = page.continuationToken
        } while token != nil
        return objects
    }

    /// One page of the objects under `prefix` (at most `maxKeys`, at most 1000).
    public func listPage(prefix: String, continuationToken: String? = nil, maxKeys: Int = 1000) async throws(S3Error) -> S3ListPage {
        var query = [("list-type", "2"), ("max-keys", String(max(1, min(maxKeys, 1000)))), ("prefix", prefix)]
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let response = try await send("list", .get, query: query.map { (name: $0.0, value: $0.1) })
        guard (200..<300).contains(response.status) else { throw failure("list", nil, response) }
        let document: S3XML
        do { document = try S3XML.parse(response.body) } catch {
            throw .invalidResponse(bucket: bucket, key: nil, operation: "list", reason: error.reason)
        }
        let objects = document.children("Contents").map { item in
            S3ObjectInfo(key: item.value("Key") ?? "", size: item.value("Size").flatMap { Int64($0) } ?? 0,
                         etag: item.value("ETag"), lastModified: item.value("LastModified"))
        }
        let truncated = document.value("IsTruncated") == "true"
        let next = document.value("NextContinuationToken")
        if truncated && (next ?? "").isEmpty {
            throw .invalidResponse(bucket: bucket, key: nil, operation: "list", reason: "a truncated page without NextContinuationToken")
        }
        return S3ListPage(objects: objects, continuationToken: truncated ? next : nil)
    }

    /// The multipart uploads begun and neither completed nor aborted, for keys under `prefix`
    /// (ListMultipartUploads, first 1000).
    public func listMultipartUploads(prefix: String = "") async throws(S3Error) -> [S3MultipartUpload] {
        let response = try await send("list multipart uploads", .get, query: [("prefix", prefix), ("uploads", "")])
        guard (200..<300).contains(response.status) else { throw failure("list multipart uploads", nil, response) }
        let document: S3XML
        do { document = try S3XML.parse(response.body) } catch {
            throw .invalidResponse(bucket: bucket, key: nil, operation: "list multipart uploads", reason: error.reason)
        }
        return document.children("Upload").map { S3MultipartUpload(key: $0.value("Key") ?? "", uploadID: $0.value("UploadId") ?? "") }
    }
}
