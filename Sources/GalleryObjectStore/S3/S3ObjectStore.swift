import Foundation
import GallerySystem
import GalleryTransfer

/// Objects in an S3 bucket (or any S3-compatible store) under a prefix: the key `a/b.tar` is the object
/// `PREFIX/a/b.tar`. A file goes up in one PUT, or in parts above ``S3MultipartPolicy/threshold``; a
/// stream (``writer(for:_:)``) is spooled to ``spoolFolder`` as it is written and its parts go up while it
/// grows (see ``S3ObjectWriter``). At most `uploads` bodies are in flight at once, whatever asks: the
/// store's one throttle, which also bounds the bodies read into memory.
public struct S3ObjectStore: ObjectStore {
    public let client: S3Client
    public let bucketLocation: S3Location
    /// Where streams are spooled while they are written (made when missing).
    public let spoolFolder: String
    let slots: UploadSlots

    /// Photo files this large or larger get a HEAD before their conditional PUT, so bytes another
    /// writer already stored are not sent again; smaller ones are PUT with `If-None-Match: *` at once:
    /// one request instead of two, and at worst a small body sent twice.
    public static let headFirstBytes: Int64 = 64 << 10

    /// The store of `location` on `client`, spooling streams under `spoolFolder`, `uploads` bodies at once.
    public init(client: S3Client, location: S3Location, spoolFolder: String, uploads: Int = 32) {
        self.client = client
        self.bucketLocation = location
        self.spoolFolder = spoolFolder
        self.slots = UploadSlots(limit: max(1, uploads))
    }

    public var location: String { bucketLocation.description }
    public func location(of key: String) -> String { "s3://\(bucketLocation.bucket)/\(bucketLocation.key(key))" }

    public func check(prefix: String) async throws(ObjectStoreError) {
        try await client.checkBucket(prefix: bucketLocation.key(prefix))
    }

    public func put(file path: String, as key: String, _ options: ObjectPutOptions) async throws(ObjectStoreError) -> ObjectPutResult {
        await slots.acquire()
        defer { slots.release() }
        let key = bucketLocation.key(key)
        let size = try S3Client.fileSize(path)
        guard options.ifAbsent, size < Self.headFirstBytes else {
            return try await client.putFile(key: key, path: path, contentType: options.contentType,
                                            cacheControl: options.cacheControl, ifNoneMatch: options.ifAbsent)
        }
        let bytes = try S3Client.read(path, offset: 0, count: Int(size))
        return try await client.putConditionally(key: key, body: bytes, contentType: options.contentType, cacheControl: options.cacheControl)
    }

    public func put(bytes: [UInt8], as key: String, _ options: ObjectPutOptions) async throws(ObjectStoreError) -> ObjectPutResult {
        await slots.acquire()
        defer { slots.release() }
        return try await client.put(key: bucketLocation.key(key), body: bytes, contentType: options.contentType,
                                    cacheControl: options.cacheControl, ifNoneMatch: options.ifAbsent)
    }

    public func writer(for key: String, _ options: ObjectPutOptions) throws(ObjectStoreError) -> any ObjectWriter {
        try S3ObjectWriter(store: self, key: key, options: options)
    }

    public func get(_ key: String) async throws(ObjectStoreError) -> [UInt8]? {
        try await client.get(key: bucketLocation.key(key)).map { [UInt8]($0) }
    }

    public func get(_ key: String, to path: String) async throws(ObjectStoreError) -> Int64? {
        try await client.download(key: bucketLocation.key(key), to: path)
    }

    public func list(prefix: String) async throws(ObjectStoreError) -> [StoredObject] {
        let root = bucketLocation.prefix
        return try await client.list(prefix: bucketLocation.key(prefix)).map {
            StoredObject(key: String($0.key.dropFirst(root.count)), size: $0.size)
        }
    }

    public func delete(_ key: String) async throws(ObjectStoreError) {
        try await client.delete(key: bucketLocation.key(key))
    }

    public func unfinishedUploads(prefix: String) async throws(ObjectStoreError) -> [UnfinishedUpload] {
        let root = bucketLocation.prefix
        return try await client.listMultipartUploads(prefix: bucketLocation.key(prefix)).map {
            UnfinishedUpload(key: String($0.key.dropFirst(root.count)), id: $0.uploadID)
        }
    }

    public func abort(_ upload: UnfinishedUpload) async throws(ObjectStoreError) {
        try await client.abort(S3MultipartUpload(key: bucketLocation.key(upload.key), uploadID: upload.id))
    }
}

extension S3Client {
    /// One PUT with `If-None-Match: *` and no HEAD before it: ``S3PutResult/alreadyExisted`` when the
    /// store answers 412.
    func putConditionally(key: String, body: [UInt8], contentType: String, cacheControl: String?) async throws(S3Error) -> S3PutResult {
        var headers = HTTPHeaders()
        headers.set("Content-Type", contentType)
        if let cacheControl { headers.set("Cache-Control", cacheControl) }
        headers.set("If-None-Match", "*")
        let response = try await send("PUT", .put, key: key, headers: headers, body: body)
        if response.status == 412 { return .alreadyExisted }
        guard (200..<300).contains(response.status) else { throw failure("PUT", key, response) }
        return .created
    }
}
