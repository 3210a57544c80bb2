import Foundation
import GallerySync
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Against nginx serving https with HTTP/2 (ALPN) under a self-signed certificate: many downloads at once
/// are multiplexed as streams of one connection, byte-exact, and the certificate is verified.
@Suite struct NginxHTTP2Tests {
    @Test func concurrentDownloadsShareOneMultiplexedConnection() async throws {
        let root = try TempDirectory()
        let count = 30
        var bodies: [String: [UInt8]] = [:]
        for i in 0..<count {
            let b = Kit.jpeg(20_000 + (i * 7919) % 400_000, seed: UInt64(i + 500))
            try root.write(b, to: "h\(i).jpg")
            bodies["h\(i).jpg"] = b
        }
        let nginx = try NginxServer(root: root.path, tls: true)
        #expect(nginx.baseURL.hasPrefix("https://"))
        let dir = try TempDirectory()
        let engine = Kit.engine { $0.caCertificatesPath = nginx.certificatePath; $0.maxConcurrentPerHost = 6 }
        let versions = VersionList()
        let failures = FailureList()
        let requests = (0..<count).map {
            DownloadRequest(url: nginx.url("/h\($0).jpg"), destination: dir.file("h\($0).jpg"), expectImage: true)
        }
        await engine.downloadAll(requests) { outcome in
            if let e = outcome.error { failures.add(e) }
            if case .success(let r)? = outcome.result { versions.add(r.metrics.lastAttempt.httpVersion) }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        for (name, body) in bodies { #expect(Kit.read(dir.file(name)) == body, "\(name)") }
        #expect(versions.all.count == count)
        #expect(Set(versions.all) == ["2"], "\(versions.all)")
        _ = nginx.waitForRequests(path: "/h\(count - 1).jpg", count: 1)
        let log = nginx.accessLog()
        #expect(log.count == count)
        #expect(Set(log.map(\.serverProtocol)) == ["HTTP/2.0"])
        // Several transfers ran at once (the per-host limit is 6), yet they rode one connection.
        #expect(engine.peakConcurrentTransfers > 1)
        #expect(Set(log.map(\.connection)).count == 1, "connections: \(Set(log.map(\.connection)))")
    }

    @Test func anUntrustedCertificateIsAClearNonRetriedFailure() async throws {
        let root = try TempDirectory()
        try root.write(Kit.jpeg(10_000), to: "a.jpg")
        let nginx = try NginxServer(root: root.path, tls: true)
        let dir = try TempDirectory()
        // No CA given: the system store does not trust the test's self-signed certificate.
        let engine = Kit.engine()
        let error = try #require(await Kit.failure(engine, DownloadRequest(url: nginx.url("/a.jpg"), destination: dir.file("a.jpg"))))
        #expect(error.url == nginx.url("/a.jpg"))
        #expect(error.attempts == 1, "certificate failures are not retried")
        #expect(error.description.lowercased().contains("certificate"), "\(error.description)")
        #expect(!Kit.exists(dir.file("a.jpg")))
        #expect(nginx.accessLog().isEmpty, "no request is sent over an unverified connection")
    }
}

/// Collects HTTP versions from concurrent callbacks.
final class VersionList: Sendable {
    private let list = Locked<[String]>([])
    func add(_ v: String) { list.withLock { $0.append(v) } }
    var all: [String] { list.withLock { $0 } }
}
