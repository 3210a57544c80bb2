import GalleryTransfer

extension S3GalleryStore {
    /// Photo files this large or larger get a HEAD before their conditional PUT, so bytes another
    /// writer already stored are not sent again; smaller ones are PUT with `If-None-Match: *` at once:
    /// one request instead of two, and at worst a small body sent twice (an object another shard or an
    /// earlier run stored).
    static let headFirstBytes: Int64 = 64 << 10

    /// Publishes the photo file at `path` (`size` bytes) under `key` unless the key holds an object.
    func putImmutable(key: String, path: String, size: Int64, contentType: String,
                      cacheControl: String) async throws(S3Error) -> S3PutResult {
        guard size >= 0, size < Self.headFirstBytes else {
            return try await client.putFile(key: key, path: path, contentType: contentType, cacheControl: cacheControl,
                                            ifNoneMatch: true)
        }
        let bytes = try S3Client.read(path, offset: 0, count: Int(size))
        var headers = HTTPHeaders()
        headers.set("Content-Type", contentType)
        headers.set("Cache-Control", cacheControl)
        headers.set("If-None-Match", "*")
        let response = try await client.send("PUT", .put, key: key, headers: headers, body: bytes)
        if response.status == 412 { return .alreadyExisted }
        guard (200..<300).contains(response.status) else { throw client.failure("PUT", key, response) }
        return .created
    }
}
