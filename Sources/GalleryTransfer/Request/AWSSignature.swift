/// Signs a request with AWS Signature Version 4, as S3 and S3-compatible stores (Ceph RGW, MinIO, R2)
/// require. libcurl computes the signature (`CURLOPT_AWS_SIGV4`, provider `aws:amz:REGION:SERVICE`)
/// from the method, the path, the query, the headers the request sets (all of them are signed) and
/// `x-amz-date`, which it adds.
///
/// What libcurl (7.88) leaves to the caller, and ``HTTPRequest`` therefore must carry:
/// - the `x-amz-content-sha256` header, the payload's SHA-256 in hex (S3 answers every request
///   without it with `SignatureDoesNotMatch`; libcurl signs the value the header gives);
/// - a canonical query: parameters sorted by name and RFC 3986-encoded (see ``canonicalQuery(_:)``),
///   because libcurl signs the query exactly as the URL spells it.
///
/// The session token of temporary credentials goes out as `x-amz-security-token` (signed). The
/// secret never appears in `description`.
public struct AWSSignature: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The access key id (`AKIA...`).
    public var accessKeyID: String
    /// The secret access key: given to libcurl only, never printed.
    public var secretAccessKey: String
    /// The session token of temporary credentials (STS), if any.
    public var sessionToken: String?
    /// The region signed for (`us-east-1`).
    public var region: String
    /// The service signed for (`s3`).
    public var service: String

    /// A signature for `service` in `region` with these keys.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil,
                region: String, service: String = "s3") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.region = region
        self.service = service
    }

    /// libcurl's provider string: `aws:amz:us-east-1:s3`.
    var provider: String { "aws:amz:\(region):\(service)" }

    /// The key id, the region and the service; the secret and the token redacted.
    public var description: String {
        "AWSSignature(\(accessKeyID), secret [redacted]\(sessionToken == nil ? "" : ", session token [redacted]"), \(region)/\(service))"
    }

    /// What `dump` shows: no secret, no token.
    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secretAccessKey": "[redacted]", "region": region, "service": service],
               displayStyle: .struct)
    }

    /// The characters RFC 3986 leaves unreserved (`A-Z a-z 0-9 - . _ ~`), which SigV4 never encodes.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"): return true
        default: return false
        }
    }

    /// `text` percent-encoded as SigV4 wants it: every byte of its UTF-8 but the unreserved ones as
    /// `%XX` (upper-case hex); `/` kept when `keepSlash` (an object key in a path).
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepSlash && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A query string in SigV4's canonical form: `name=value` pairs, both encoded with ``encode(_:keepSlash:)``,
    /// sorted by encoded name (then value), joined by `&`; a parameter without a value is `name=`.
    public static func canonicalQuery(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { (encode($0.name), encode($0.value)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }
}
