/// A place that holds whole objects under keys: a folder (``FolderObjectStore``) or a bucket of an S3 or
/// S3-compatible service (``S3ObjectStore``). Keys are relative to the store's root (the folder, or the
/// bucket's prefix) and use `/` between their parts. An object appears only whole: a put that fails, a
/// stream that is discarded or a run that is killed never leaves part of one under its key.
///
/// The gallery store (publish, flush, checkpoint, plan, parts) and the dataset sink (shard files, indexes)
/// are adapters over this protocol: what they add (the order of uploads, the journal, the shard's stats
/// last) is theirs, the bytes and the requests are the store's. Every failure is an ``ObjectStoreError``
/// naming the key (``location(of:)``) or the local path.
public protocol ObjectStore: Sendable {
    /// Where the store is, for messages (`out`, `s3://bucket/prefix/`).
    var location: String { get }
    /// Where the object `key` is, for messages (`out/a/b.tar`, `s3://bucket/prefix/a/b.tar`).
    func location(of key: String) -> String
    /// Checks that the store answers and may be written under `prefix` (a bucket that exists and takes
    /// the keys; a folder that can be made).
    func check(prefix: String) async throws(ObjectStoreError)
    /// Stores the local file at `path` under `key`, whole. With ``ObjectPutOptions/ifAbsent`` an object
    /// already under the key is left as it is (``ObjectPutResult/alreadyExisted``).
    func put(file path: String, as key: String, _ options: ObjectPutOptions) async throws(ObjectStoreError) -> ObjectPutResult
    /// Stores `bytes` under `key`, whole (see ``put(file:as:_:)``).
    func put(bytes: [UInt8], as key: String, _ options: ObjectPutOptions) async throws(ObjectStoreError) -> ObjectPutResult
    /// A stream to `key`: bytes written as they come (a shard that grows), stored once it is closed and
    /// completed, never in part. Its upload may begin before the stream is closed (S3's multipart parts).
    /// A stream replaces what the key holds (``ObjectPutOptions/ifAbsent`` is for whole puts).
    func writer(for key: String, _ options: ObjectPutOptions) throws(ObjectStoreError) -> any ObjectWriter
    /// The object's bytes, or nil when the store has no such key.
    func get(_ key: String) async throws(ObjectStoreError) -> [UInt8]?
    /// Streams the object into the local file at `path` (which appears only whole); returns its size,
    /// or nil when the store has no such key.
    func get(_ key: String, to path: String) async throws(ObjectStoreError) -> Int64?
    /// The objects whose keys start with `prefix`, in key order (unfinished streams left out).
    func list(prefix: String) async throws(ObjectStoreError) -> [StoredObject]
    /// Deletes the object (a key that holds none is fine).
    func delete(_ key: String) async throws(ObjectStoreError)
    /// The streams under `prefix` begun and neither completed nor discarded: a run killed while it wrote.
    func unfinishedUploads(prefix: String) async throws(ObjectStoreError) -> [UnfinishedUpload]
    /// Drops an unfinished stream's bytes (one already gone is fine).
    func abort(_ upload: UnfinishedUpload) async throws(ObjectStoreError)
}

/// A stream to one object (``ObjectStore/writer(for:_:)``). ``write(_:)`` and ``close()`` belong to the
/// one writer that owns it; ``complete()`` then stores the object, or ``discard()`` drops it.
public protocol ObjectWriter: AnyObject, Sendable {
    /// The object's key.
    var key: String { get }
    /// Appends bytes to the object.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ObjectStoreError)
    /// No more bytes: what is buffered is written out (the object is not stored yet).
    func close() throws(ObjectStoreError)
    /// After ``close()``: stores the object whole and returns its size; on failure nothing is under the
    /// key (an upload begun is aborted) and the error names the key.
    func complete() async throws(ObjectStoreError) -> Int64
    /// Drops the object: nothing of it reaches the key (an upload begun is aborted).
    func discard()
}

extension ObjectWriter {
    /// Appends bytes held in an array.
    public func write(_ bytes: [UInt8]) throws(ObjectStoreError) {
        let result: Result<Void, ObjectStoreError> = bytes.withUnsafeBytes { buffer in
            do throws(ObjectStoreError) { try write(buffer); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }
}

/// How an object is stored.
public struct ObjectPutOptions: Sendable, Equatable {
    /// Its `Content-Type` (for a store that serves objects over HTTP).
    public var contentType: String
    /// Its `Cache-Control`, if any.
    public var cacheControl: String?
    /// Leave an object already under the key as it is (S3's `If-None-Match: *`).
    public var ifAbsent: Bool

    public init(contentType: String = "application/octet-stream", cacheControl: String? = nil, ifAbsent: Bool = false) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.ifAbsent = ifAbsent
    }
}

/// What a put found.
public enum ObjectPutResult: Sendable, Equatable {
    /// The object was written (or, without `ifAbsent`, overwritten).
    case created
    /// `ifAbsent` was set and the key already held an object: it was left as it was. (A retried PUT
    /// whose first attempt did land also reads so: the object is there either way.)
    case alreadyExisted
}

/// The client's name for ``ObjectPutResult``.
public typealias S3PutResult = ObjectPutResult

/// An object a listing found: its key (relative to the store's root) and size.
public struct StoredObject: Sendable, Equatable {
    public var key: String
    public var size: Int64

    public init(key: String, size: Int64) {
        self.key = key
        self.size = size
    }
}

/// A stream begun and neither completed nor discarded (``ObjectStore/unfinishedUploads(prefix:)``).
public struct UnfinishedUpload: Sendable, Equatable, Hashable {
    /// The object's key, relative to the store's root.
    public var key: String
    /// The store's name for the upload (S3's upload ID; the temporary file's name in a folder).
    public var id: String

    public init(key: String, id: String) {
        self.key = key
        self.id = id
    }
}
