import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// HTTPS with HTTP/2 against nginx under certificates from a test CA (what the photo services serve):
/// resume with Range + If-Range over HTTP/2, a server ending its multiplexed connections (GOAWAY after a few
/// streams, or a restart mid-transfer) costs no photo, and each TLS failure is one clear attempt.
@Suite struct NginxTLSTests {
    enum Failure: String, CaseIterable, Sendable {
        case expired, wrongHost, unknownCA
    }

    @Test(arguments: Failure.allCases)
    func aCertificateFailureIsOneClearAttempt(_ failure: Failure) async throws {
        let ca = try TestCertificateAuthority()
        let root = try TempDirectory()
        try root.write(Kit.jpeg(20_000), to: "a.jpg")
        let certificate = try ca.issue(failure == .expired ? .expired : failure == .wrongHost ? .wrongHost : .valid)
        let nginx = try NginxServer(root: root.path, certificate: certificate)
        // An unknown CA: the client trusts another authority than the one that signed the server's certificate.
        let other = try TestCertificateAuthority()
        let engine = Kit.engine { $0.caCertificatesPath = (failure == .unknownCA ? other : ca).certificatePath }
        let dir = try TempDirectory()
        let url = nginx.url("/a.jpg")
        let connectionsBefore = try #require(nginx.acceptedConnections())
        let error = try #require(await Kit.failure(engine, DownloadRequest(url: url, destination: dir.file("a.jpg"))))
        #expect(error.url == url)
        #expect(error.reason == .tlsVerificationFailed)
        #expect(error.attempts == 1, "certificate failures are not retried")
        let cause = switch failure {
        case .expired: "the server's certificate has expired"
        case .wrongHost: "the certificate is not for this host name"
        case .unknownCA: "the certificate is not signed by a trusted CA"
        }
        #expect(error.description.hasPrefix("\(url): TLS certificate not verified: \(cause)"), "\(error.description)")
        #expect(!Kit.exists(dir.file("a.jpg")) && !Kit.exists(dir.file("a.jpg.part")))
        // One connection, given up by the client in or right after the handshake; no request was sent over it.
        #expect(nginx.acceptedConnections().map { $0 - connectionsBefore } == 1)
        if failure != .wrongHost {  // the host name is checked after the handshake, so nginx sees no alert
            // nginx logs the client's alert when it reads it, which may be just after the client returned.
            let until = Date().addingTimeInterval(5)
            while nginx.failedHandshakes() == 0, Date() < until { try await Task.sleep(for: .milliseconds(20)) }
            #expect(nginx.failedHandshakes() == 1, "\(nginx.errorLog)")
        }
        #expect(nginx.accessLog().isEmpty)
    }

    @Test func resumesWithRangeAndIfRangeOverHTTP2() async throws {
        let ca = try TestCertificateAuthority()
        let root = try TempDirectory()
        let body = Kit.jpeg(2_000_000, seed: 31)
        try root.write(body, to: "photo.jpg")
        let nginx = try NginxServer(root: root.path, certificate: try ca.issue())
        let engine = Kit.engine { $0.caCertificatesPath = ca.certificatePath }
        let dir = try TempDirectory()
        let dest = dir.file("photo.jpg")
        let url = nginx.url("/photo.jpg")
        let head = try await engine.request(HTTPRequest(method: .head, url: url)).response()
        #expect(head.metrics.lastAttempt.httpVersion == "2")
        let etag = try #require(head.headers["ETag"])
        try dir.write(Array(body.prefix(700_000)), to: "photo.jpg.part")
        try PartPaths(destination: dest).saveSidecar(Sidecar(url: url, validator: .etag(etag), expectedLength: 2_000_000),
                                                    durable: false)
        let result = try await engine.download(DownloadRequest(url: url, destination: dest, expectImage: true))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 700_000)
        #expect(result.metrics.lastAttempt.httpVersion == "2")
        let get = try #require(nginx.waitForRequests(path: "/photo.jpg", count: 2).last { $0.method == "GET" })
        #expect(get.serverProtocol == "HTTP/2.0")
        #expect(get.status == 206 && get.range == "bytes=700000-" && get.ifRange == etag)
        #expect(get.bodyBytesSent == 1_300_000)
    }

    /// nginx ends each HTTP/2 connection after 4 streams (GOAWAY): 30 downloads spread over new connections,
    /// every one byte-exact.
    @Test func connectionsEndedAfterAFewStreamsCostNoPhoto() async throws {
        try await Kit.offPool {
            let ca = try TestCertificateAuthority()
            let root = try TempDirectory()
            var bodies: [String: [UInt8]] = [:]
            for i in 0..<30 {
                let b = Kit.jpeg(30_000 + i * 4001, seed: UInt64(i + 700))
                try root.write(b, to: "g\(i).jpg")
                bodies["g\(i).jpg"] = b
            }
            let nginx = try NginxServer(root: root.path, extraServerDirectives: "keepalive_requests 4;",
                                        certificate: try ca.issue())
            let engine = Kit.engine { $0.caCertificatesPath = ca.certificatePath }
            let dir = try TempDirectory()
            let failures = FailureList()
            await engine.downloadAll(bodies.keys.sorted().map {
                DownloadRequest(url: nginx.url("/" + $0), destination: dir.file($0), expectImage: true)
            }) { if let e = $0.error { failures.add(e) } }
            #expect(failures.all.isEmpty, "\(failures.all)")
            for (name, body) in bodies { #expect(Kit.read(dir.file(name)) == body, "\(name)") }
            let log = nginx.accessLog().filter { $0.status == 200 }
            #expect(log.count >= 30)
            #expect(Set(log.map(\.serverProtocol)) == ["HTTP/2.0"])
            #expect(log.map(\.connectionRequests).max() ?? 99 <= 4)
            #expect(Set(log.map(\.connection)).count >= 8, "connections: \(Set(log.map(\.connection)).count)")
        }
    }

    /// nginx stops while six downloads stream over its one HTTP/2 connection and comes back on the same
    /// port: the engine retries, resumes each from its part file with Range + If-Range, and loses nothing.
    @Test func aRestartMidTransferCostsNoPhotoAndResumes() async throws {
        try await Kit.offPool {
            let ca = try TestCertificateAuthority()
            let certificate = try ca.issue()
            let root = try TempDirectory()
            var bodies: [String: [UInt8]] = [:]
            for i in 0..<6 {
                let b = Kit.jpeg(1_200_000 + i * 1000, seed: UInt64(i + 900))
                try root.write(b, to: "r\(i).jpg")
                bodies["r\(i).jpg"] = b
            }
            let slow = "limit_rate 400k;"
            let first = try NginxServer(root: root.path, extraServerDirectives: slow, certificate: certificate)
            let engine = Kit.engine {
                $0.caCertificatesPath = ca.certificatePath
                $0.retry = RetryPolicy(maxAttempts: 10, baseBackoff: 0.2, maxBackoff: 1, maxRetryAfter: 3)
            }
            let dir = try TempDirectory()
            let failures = FailureList()
            let requests = bodies.keys.sorted().map {
                DownloadRequest(url: first.url("/" + $0), destination: dir.file($0), expectImage: true)
            }
            let run = Task(executorPreference: DedicatedTaskExecutor.shared) { await engine.downloadAll(requests) { if let e = $0.error { failures.add(e) } } }
            // Wait until every download has bytes in its part file, then stop nginx mid-transfer.
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !bodies.keys.allSatisfy({ Self.size(dir.file($0 + ".part")) > 300_000 }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            first.stop()
            let second = try NginxServer(root: root.path, certificate: certificate, port: first.port)
            await run.value
            #expect(failures.all.isEmpty, "\(failures.all)")
            for (name, body) in bodies { #expect(Kit.read(dir.file(name)) == body, "\(name)") }
            let before = first.accessLog().filter { $0.method == "GET" }
            #expect(before.allSatisfy { $0.serverProtocol == "HTTP/2.0" })
            let after = second.accessLog().filter { $0.method == "GET" }
            #expect(after.count == 6 && after.allSatisfy { $0.status == 206 && $0.ifRange != nil }, "\(after)")
            #expect(Set(after.map(\.serverProtocol)) == ["HTTP/2.0"])
            // Only the missing bytes were sent again.
            let resent = after.reduce(0) { $0 + $1.bodyBytesSent }
            #expect(resent < bodies.values.reduce(0) { $0 + $1.count } - 6 * 300_000)
        }
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
