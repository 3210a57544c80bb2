import CCrypto
import Foundation
import GalleryTransfer

/// A client for one bucket of an S3 or S3-compatible store, on a ``TransferEngine``: requests are
/// signed with SigV4 by libcurl, run with the engine's limits and retried by its policy (500, 503
/// `SlowDown` and network failures with backoff; 403 and 404 answered at once).
///
/// A value type holding only `Sendable` parts: copy it into as many concurrent tasks as needed; every
/// upload in flight is one of the engine's transfers.
///
/// ```swift
/// let location = try S3Location(parsing: "s3://photos/gallery")
/// let client = S3Client(engine: engine, endpoint: try S3Endpoint(url: "http://127.0.0.1:7480"),
///                       credentials: try S3Credentials.resolve(), bucket: location.bucket)
/// try await client.checkBucket()
/// _ = try await client.put(key: location.key("index.html"), body: html, contentType: "text/html; charset=utf-8")
/// ```
public struct S3Client: Sendable {
    /// The engine requests run on.
    public let engine: TransferEngine
    /// The service and its addressing.
    public let endpoint: S3Endpoint
    /// The bucket every operation addresses.
    public let bucket: String
    /// When and how `putFile` splits an upload.
    public var multipart: S3MultipartPolicy
    let signature: AWSSignature

    /// The SHA-256 of an empty payload.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// A client for `bucket`.
    public init(engine: TransferEngine, endpoint: S3Endpoint, credentials: S3Credentials, bucket: String,
                multipart: S3MultipartPolicy = S3MultipartPolicy()) {
        self.engine = engine
        self.endpoint = endpoint
        self.bucket = bucket
        self.multipart = multipart
        signature = AWSSignature(accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey,
                                 sessionToken: credentials.sessionToken, region: endpoint.region)
    }

    /// Checks the bucket exists and the keys may list it (one `ListObjectsV2` of at most one key, under
    /// `prefix` when given). Throws ``S3Error/accessDenied(bucket:key:code:)`` for refused keys and
    /// ``S3Error/noSuchBucket(bucket:)`` for a missing bucket, at once (neither is retried).
    public func checkBucket(prefix: String = "") async throws(S3Error) {
        var query = [(name: "list-type", value: "2"), (name: "max-keys", value: "1")]
        if !prefix.isEmpty { query.append((name: "prefix", value: prefix)) }
        let response = try await send("check bucket", .get, query: query)
        guard (200..<300).contains(response.status) else { throw failure("check bucket", nil, response) }
    }

    /// The object's bytes, or nil when there is no such key.
    public func get(key: String) async throws(S3Error) -> Data? {
        let response = try await send("GET", .get, key: key)
        if response.status == 404, errorCode(response) != "NoSuchBucket" { return nil }
        guard (200..<300).contains(response.status) else { throw failure("GET", key, response) }
        return Data(response.body)
    }

    /// The object's size, ETag, type and cache policy, or nil when there is no such key.
    public func head(key: String) async throws(S3Error) -> S3ObjectInfo? {
        let response = try await send("HEAD", .head, key: key)
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else { throw failure("HEAD", key, response) }
        let headers = response.headers
        return S3ObjectInfo(key: key, size: headers["Content-Length"].flatMap { Int64($0) } ?? 0,
                            etag: headers["ETag"], lastModified: headers["Last-Modified"],
                            contentType: headers["Content-Type"], cacheControl: headers["Cache-Control"])
    }

    /// Deletes the object (deleting a missing key succeeds, as in S3).
    public func delete(key: String) async throws(S3Error) {
        let response = try await send("DELETE", .delete, key: key)
        if response.status == 404, errorCode(response) == "NoSuchKey" { return }
        guard (200..<300).contains(response.status) else { throw failure("DELETE", key, response) }
    }

    // MARK: requests

    /// Sends one signed request through the engine and returns its answer whatever the status;
    /// `TransferError`s (network, retryable statuses through every attempt) become ``S3Error/transfer``.
    func send(_ operation: String, _ method: HTTPMethod, key: String = "", query: [(name: String, value: String)] = [],
              headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]? = nil, payloadHash: String? = nil) async throws(S3Error) -> DataResponse {
        var request = HTTPRequest(method: method, url: endpoint.url(bucket: bucket, key: key, query: query), headers: headers, body: body)
        request.headers.set("x-amz-content-sha256", payloadHash ?? body.map { Self.payloadHash($0) } ?? Self.emptyPayloadHash)
        request.awsSignature = signature
        do {
            return try await engine.request(request).response()
        } catch {
            throw .transfer(bucket: bucket, key: key.isEmpty ? nil : key, operation: operation,
                            detail: error.description, status: error.status)
        }
    }

    /// The `Code` of an S3 error document, if the body is one.
    func errorCode(_ response: DataResponse) -> String? {
        (try? S3XML.parse(response.body))?.value("Code")
    }

    /// The error for a non-2xx answer: 403 → access denied, 404 `NoSuchBucket` (or any 404 of a
    /// bucket-level request) → no such bucket, anything else → ``S3Error/service``.
    func failure(_ operation: String, _ key: String?, _ response: DataResponse) -> S3Error {
        let document = try? S3XML.parse(response.body)
        let code = document?.value("Code") ?? ""
        switch response.status {
        case 403: return .accessDenied(bucket: bucket, key: key, code: code.isEmpty ? "HTTP 403" : code)
        case 404 where code == "NoSuchBucket" || (key == nil && code.isEmpty): return .noSuchBucket(bucket: bucket)
        default:
            return .service(bucket: bucket, key: key, operation: operation, status: response.status,
                            code: code.isEmpty ? "(no error code)" : code, message: document?.value("Message") ?? "")
        }
    }
}

extension S3Client {
    /// The SHA-256 of a request body as 64 lower-case hex digits (SigV4's `x-amz-content-sha256`), through
    /// OpenSSL's libcrypto, as GalleryKit's `Digest.sha256` computes it for the manifest.
    static func payloadHash(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &digest, &length, EVP_sha256(), nil) }
        precondition(ok == 1 && length == 32, "EVP_Digest(sha256) failed")
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}

/// What ``S3Client/head(key:)`` and ``S3Client/list(prefix:pageSize:)`` tell about an object (a listing
/// fills key, size, ETag and date; a HEAD also type and cache policy).
public struct S3ObjectInfo: Sendable, Equatable {
    public var key: String
    public var size: Int64
    public var etag: String?
    public var lastModified: String?
    public var contentType: String?
    public var cacheControl: String?

    public init(key: String, size: Int64, etag: String? = nil, lastModified: String? = nil,
                contentType: String? = nil, cacheControl: String? = nil) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.cacheControl = cacheControl
    }
}
