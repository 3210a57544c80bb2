import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryTransfer

/// Against a real nginx: resume with Range/If-Range on its strong ETags, many downloads at once byte-exact,
/// the per-host limit seen from the server's side (distinct keep-alive connections in its access log).
@Suite struct NginxDownloadTests {
    @Test func resumesAPartialWithRangeAndIfRange() async throws {
        let root = try TempDirectory()
        let body = Kit.jpeg(2_000_000, seed: 3)
        try root.write(body, to: "photo.jpg")
        let nginx = try NginxServer(root: root.path)
        let dir = try TempDirectory()
        let dest = dir.file("photo.jpg")
        // Leave the partial an interrupted run leaves: the first 700 KB and a sidecar with nginx's ETag
        // (asked with a HEAD through the engine's request API).
        let head = try await Kit.engine().request(HTTPRequest(method: .head, url: nginx.url("/photo.jpg"))).response()
        let etag = try #require(head.headers["ETag"])
        #expect(!etag.hasPrefix("W/"))
        try dir.write(Array(body.prefix(700_000)), to: "photo.jpg.part")
        try PartPaths(destination: dest).saveSidecar(Sidecar(url: nginx.url("/photo.jpg"), validator: .etag(etag),
                                                            expectedLength: 2_000_000), durable: false)
        let result = try await Kit.engine().download(DownloadRequest(url: nginx.url("/photo.jpg"), destination: dest,
                                                                     expectImage: true))
        #expect(Kit.read(dest) == body)
        #expect(result.resumedFrom == 700_000)
        let log = nginx.waitForRequests(path: "/photo.jpg", count: 2).filter { $0.method == "GET" }
        #expect(log.count == 1)
        #expect(log.first?.status == 206)
        #expect(log.first?.range == "bytes=700000-")
        #expect(log.first?.ifRange == etag)
        #expect(log.first?.bodyBytesSent == 1_300_000)
    }

    @Test func staleValidatorMakesNginxSendTheWholeFile() async throws {
        let root = try TempDirectory()
        let body = Kit.jpeg(500_000, seed: 4)
        try root.write(body, to: "photo.jpg")
        let nginx = try NginxServer(root: root.path)
        let dir = try TempDirectory()
        let dest = dir.file("photo.jpg")
        try dir.write(Kit.bytes(300_000, seed: 99), to: "photo.jpg.part")
        try PartPaths(destination: dest).saveSidecar(Sidecar(url: nginx.url("/photo.jpg"), validator: .etag("\"old-version\""),
                                                            expectedLength: 500_000), durable: false)
        _ = try await Kit.engine().download(DownloadRequest(url: nginx.url("/photo.jpg"), destination: dest))
        #expect(Kit.read(dest) == body)
        let log = nginx.waitForRequests(path: "/photo.jpg", count: 1)
        #expect(log.first?.status == 200 && log.first?.bodyBytesSent == 500_000)
    }

    @Test func manyConcurrentDownloadsByteExactWithinThePerHostLimit() async throws {
        let root = try TempDirectory()
        let count = 120
        var hashes: [String: [UInt8]] = [:]
        for i in 0..<count {
            let b = Kit.jpeg(10_000 + (i * 7919) % 600_000, seed: UInt64(i + 100))
            try root.write(b, to: "p\(i).jpg")
            hashes["p\(i).jpg"] = b
        }
        let nginx = try NginxServer(root: root.path)
        let dir = try TempDirectory()
        let engine = Kit.engine { $0.maxConcurrentTransfers = 16; $0.maxConcurrentPerHost = 5 }
        let requests = (0..<count).map {
            DownloadRequest(url: nginx.url("/p\($0).jpg"), destination: dir.file("p\($0).jpg"), expectImage: true)
        }
        let failures = FailureList()
        await engine.downloadAll(requests) { if let e = $0.error { failures.add(e) } }
        #expect(failures.all.isEmpty, "\(failures.all)")
        for (name, body) in hashes { #expect(Kit.read(dir.file(name)) == body, "\(name)") }
        let log = nginx.waitForRequests(path: "/p\(count - 1).jpg", count: 1)
        #expect(!log.isEmpty)
        let all = nginx.accessLog()
        #expect(all.count == count)
        // Kept-alive: at most 5 connections carried all 120 requests.
        let connections = Set(all.map(\.connection))
        let summary = connections.sorted().map { c in "\(c):\(all.filter { $0.connection == c }.count)" }
        #expect(connections.count <= 5, "\(connections.count) connections: \(summary)")
        #expect(engine.peakConcurrentTransfers == 5)
    }
}

/// Collects failures from concurrent callbacks.
final class FailureList: Sendable {
    private let list = Locked<[TransferError]>([])
    func add(_ e: TransferError) { list.withLock { $0.append(e) } }
    var all: [TransferError] { list.withLock { $0 } }
}
