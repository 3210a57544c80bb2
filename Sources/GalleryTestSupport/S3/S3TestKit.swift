import Foundation
import GalleryObjectStore
import GallerySync
import GalleryTransfer

/// The object-store tests' shared parts: the process's RADOS Gateway, a bucket per test, an engine
/// whose retries wait milliseconds, and a client (straight to the gateway or through a fault proxy).
public enum S3TestKit {
    /// The engine every test client runs on: 5 attempts, 20 ms to 200 ms of backoff.
    public static let engine: TransferEngine = {
        var configuration = TransferConfiguration()
        configuration.retry = RetryPolicy(maxAttempts: 5, baseBackoff: 0.02, maxBackoff: 0.2, maxRetryAfter: 0.2)
        configuration.deadline = 120
        return TransferEngine(configuration: configuration)
    }()

    /// The gateway (started on first use; a clear failure, not a skip, when Ceph is not installed).
    public static func gateway() throws -> RadosGateway { try RadosGateway.shared() }

    public static func credentials(_ gateway: RadosGateway) -> S3Credentials {
        S3Credentials(accessKeyID: gateway.accessKey, secretAccessKey: gateway.secretKey, origin: "test")
    }

    /// A fresh bucket and a client for it; through `proxy` when given.
    public static func client(bucket: String? = nil, proxy: S3FaultProxy? = nil, addressing: S3Endpoint.Addressing = .pathStyle,
                              credentials: S3Credentials? = nil, multipart: S3MultipartPolicy = S3MultipartPolicy()) throws -> S3Client {
        let gateway = try gateway()
        let name = try bucket ?? gateway.makeBucket()
        let url = addressing == .virtualHosted ? "http://localhost:\(proxy?.port ?? gateway.port)" : (proxy?.endpoint ?? gateway.endpoint)
        let endpoint = try S3Endpoint(url: url, region: gateway.region, addressing: addressing, environment: [:])
        return S3Client(engine: engine, endpoint: endpoint, credentials: credentials ?? Self.credentials(gateway),
                        bucket: name, multipart: multipart)
    }

    /// A proxy in front of the gateway.
    public static func proxy() throws -> S3FaultProxy { try S3FaultProxy(upstreamPort: gateway().port) }

    /// `count` bytes of a seeded SplitMix64 sequence (incompressible, the same each run).
    public static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var out = [UInt8]()
        out.reserveCapacity(count + 8)
        while out.count < count { withUnsafeBytes(of: random.next().littleEndian) { out += $0 } }
        return Array(out.prefix(count))
    }
}
