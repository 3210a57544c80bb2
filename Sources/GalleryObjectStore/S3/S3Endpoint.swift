import Foundation
import GalleryTransfer

/// Which service a client talks to and how it names a bucket in its URLs.
///
/// - AWS itself (no URL given): `https://BUCKET.s3.REGION.amazonaws.com/KEY` (virtual-hosted).
/// - Any S3-compatible store (`--s3-endpoint URL`: Ceph RGW, MinIO, R2): `URL/BUCKET/KEY` (path-style)
///   unless virtual-hosted addressing is asked for, then `scheme://BUCKET.HOST/KEY`.
///
/// The region comes from the argument, else `AWS_REGION`, else `AWS_DEFAULT_REGION`, else `us-east-1`.
public struct S3Endpoint: Sendable, Equatable, CustomStringConvertible {
    /// How the bucket appears in a request's URL.
    public enum Addressing: String, Sendable, Equatable, CaseIterable {
        /// `https://host/BUCKET/KEY`: what most S3-compatible stores expect.
        case pathStyle = "path"
        /// `https://BUCKET.host/KEY`: what AWS prefers (and requires for new buckets' best routing).
        case virtualHosted = "virtual"
    }

    /// `http` or `https`.
    public let scheme: String
    /// `host` or `host:port`, without a bucket.
    public let authority: String
    /// The region requests are signed for.
    public let region: String
    /// How buckets are addressed.
    public let addressing: Addressing

    /// An endpoint from a URL (`http://127.0.0.1:7480`, `https://minio.example.org`), or AWS's endpoint
    /// for the region when `url` is nil. `addressing` defaults to virtual-hosted for AWS and path-style
    /// for any other URL.
    public init(url: String? = nil, region: String? = nil, addressing: Addressing? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(S3Error) {
        let region = [region, environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]]
            .compactMap { $0?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? "us-east-1"
        guard !region.isEmpty, region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw .invalidEndpoint(url ?? "(AWS)", reason: "the region '\(region)' is not a region name (like us-east-1)")
        }
        self.region = region
        guard let url else {
            scheme = "https"
            authority = "s3.\(region).amazonaws.com"
            self.addressing = addressing ?? .virtualHosted
            return
        }
        guard let separator = url.range(of: "://") else {
            throw .invalidEndpoint(url, reason: "it has no scheme (use http:// or https://)")
        }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidEndpoint(url, reason: "the scheme '\(scheme)' is not http or https")
        }
        let rest = url[separator.upperBound...]
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        let path = rest.dropFirst(authority.count)
        if let at = authority.lastIndex(of: "@") {
            // Keys in the URL are never echoed back.
            throw .invalidEndpoint("\(scheme)://[redacted]@\(authority[authority.index(after: at)...])",
                                   reason: "it holds credentials; give keys through the environment or ~/.aws/credentials")
        }
        guard !authority.isEmpty, !authority.hasPrefix(":") else {
            throw .invalidEndpoint(url, reason: "it names no host")
        }
        guard path.isEmpty || path == "/" else {
            throw .invalidEndpoint(url, reason: "it has a path, query or fragment ('\(path)'); give the service's root URL")
        }
        self.scheme = scheme
        self.authority = authority
        self.addressing = addressing ?? .pathStyle
    }

    /// `https://s3.us-east-1.amazonaws.com (virtual-hosted, us-east-1)`.
    public var description: String {
        "\(scheme)://\(authority) (\(addressing == .pathStyle ? "path-style" : "virtual-hosted"), \(region))"
    }

    /// The URL of `key` in `bucket` (the bucket itself when `key` is empty) with a canonical query.
    /// Buckets whose names hold dots are always addressed path-style: `a.b.host` would not match a TLS
    /// certificate for `*.host`.
    public func url(bucket: String, key: String = "", query: [(name: String, value: String)] = []) -> String {
        let path = AWSSignature.encode(key, keepSlash: true)
        var url: String
        if addressing == .virtualHosted && !bucket.contains(".") {
            url = "\(scheme)://\(bucket).\(authority)/\(path)"
        } else {
            url = "\(scheme)://\(authority)/\(bucket)" + (key.isEmpty ? "" : "/\(path)")
        }
        if !query.isEmpty { url += "?" + AWSSignature.canonicalQuery(query) }
        return url
    }
}
