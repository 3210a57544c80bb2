import Glibc
import GalleryTransfer

/// Why an object-store operation failed, the module's one error: every case names the place (the bucket
/// and the key, or the local path) and the reason; none ever carries the secret key or the session token.
public enum ObjectStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `s3://BUCKET/PREFIX` could not be parsed.
    case invalidLocation(String, reason: String)
    /// The endpoint URL, the addressing style or the region is unusable.
    case invalidEndpoint(String, reason: String)
    /// No credentials were found (no environment variables, no profile in the credentials file).
    case credentialsMissing(reason: String)
    /// The shared credentials file is unreadable or its profile incomplete.
    case credentialsFile(path: String, reason: String)
    /// The store refused the keys or the request (HTTP 403: `InvalidAccessKeyId`, `SignatureDoesNotMatch`,
    /// `AccessDenied`). Never retried.
    case accessDenied(bucket: String, key: String?, code: String)
    /// The bucket does not exist (HTTP 404 `NoSuchBucket`). Never retried.
    case noSuchBucket(bucket: String)
    /// The store answered another error; `operation` says what was asked (`PUT`, `upload part 3 of 5`).
    case service(bucket: String, key: String?, operation: String, status: Int, code: String, message: String)
    /// The request did not get an answer the client could use: network failure, or a retryable status
    /// (500, 503 `SlowDown`) through every attempt. `detail` is the transfer layer's sentence.
    case transfer(bucket: String, key: String?, operation: String, detail: String, status: Int?)
    /// The store's XML answer could not be read.
    case invalidResponse(bucket: String, key: String?, operation: String, reason: String)
    /// A local file to upload could not be read.
    case file(path: String, reason: String)
    /// A file operation failed on `path` (`operation` is the call: `open`, `rename`, `write`; `errno` its code).
    case folder(path: String, operation: String, errno: Int32)
    /// A key the store refuses: empty, absolute, or with `.`, `..` or an empty part.
    case invalidKey(String, location: String)
    /// A stream was written, closed or completed out of turn (after it was closed or settled).
    case streamClosed(location: String)

    /// One line naming the bucket, the key and what went wrong.
    public var description: String {
        switch self {
        case let .invalidLocation(text, reason):
            return "invalid S3 location '\(text)': \(reason) (expected s3://BUCKET or s3://BUCKET/PREFIX)"
        case let .invalidEndpoint(text, reason):
            return "invalid S3 endpoint '\(text)': \(reason)"
        case let .credentialsMissing(reason):
            return "no S3 credentials: \(reason)"
        case let .credentialsFile(path, reason):
            return "S3 credentials file \(path): \(reason)"
        case let .accessDenied(bucket, key, code):
            return "\(Self.place(bucket, key)): access denied (\(code)): check the access key, the secret key and the region"
        case let .noSuchBucket(bucket):
            return "s3://\(bucket): no such bucket (create it first, or check the endpoint and region)"
        case let .service(bucket, key, operation, status, code, message):
            return "\(Self.place(bucket, key)): \(operation) failed: HTTP \(status) \(code)" + (message.isEmpty ? "" : ": \(message)")
        case let .transfer(bucket, key, operation, detail, _):
            return "\(Self.place(bucket, key)): \(operation) failed: \(detail)"
        case let .invalidResponse(bucket, key, operation, reason):
            return "\(Self.place(bucket, key)): \(operation): unreadable answer: \(reason)"
        case let .file(path, reason):
            return "cannot upload \(path): \(reason)"
        case let .folder(path, operation, code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .invalidKey(key, location):
            return "\(location): '\(key)' is not a key (empty, absolute, or with '.', '..' or '//')"
        case let .streamClosed(location):
            return "\(location): written after it was closed"
        }
    }

    /// Whether the failure is the caller's configuration (keys, bucket) rather than the store's state:
    /// such errors end a run at once.
    public var isConfigurationError: Bool {
        switch self {
        case .invalidLocation, .invalidEndpoint, .credentialsMissing, .credentialsFile, .accessDenied, .noSuchBucket: return true
        default: return false
        }
    }

    static func place(_ bucket: String, _ key: String?) -> String {
        key.map { "s3://\(bucket)/\($0)" } ?? "s3://\(bucket)"
    }
}

/// The client's name for ``ObjectStoreError`` (its cases are S3's, and a folder's besides).
public typealias S3Error = ObjectStoreError
