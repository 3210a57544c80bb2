import Foundation
import GalleryTestSupport
import GalleryTestTraits
import GalleryTransfer
import Testing
@testable import GalleryObjectStore

/// The client against a real S3 service (Ceph's RADOS Gateway, started by the harness).
@Suite(.gatewayStarted) struct S3ClientTests {
    @Test func putThenGetReturnsTheBytesTypeAndCachePolicy() async throws {
        let client = try S3TestKit.client()
        let body = S3TestKit.bytes(300_001)
        let key = "gallery/photos/a b/ü+1.jpg"
        #expect(try await client.put(key: key, body: body, contentType: "image/jpeg",
                                     cacheControl: "public, max-age=31536000, immutable") == .created)
        #expect(try await client.get(key: key) == Data(body))
        let info = try #require(try await client.head(key: key))
        #expect(info.size == 300_001 && info.contentType == "image/jpeg")
        #expect(info.cacheControl == "public, max-age=31536000, immutable")
        // An empty object, and one replaced by an unconditional PUT.
        #expect(try await client.put(key: "empty", body: [], contentType: "text/plain") == .created)
        #expect(try await client.get(key: "empty") == Data())
        #expect(try await client.put(key: key, body: [1, 2, 3], contentType: "application/octet-stream") == .created)
        #expect(try await client.get(key: key) == Data([1, 2, 3]))
    }

    @Test func missingKeysReadAsNilAndDeleteIsIdempotent() async throws {
        let client = try S3TestKit.client()
        #expect(try await client.get(key: "nothing/here") == nil)
        #expect(try await client.head(key: "nothing/here") == nil)
        _ = try await client.put(key: "x", body: [7], contentType: "text/plain")
        try await client.delete(key: "x")
        #expect(try await client.get(key: "x") == nil)
        try await client.delete(key: "x")
    }

    /// An object larger than the engine's memory buffer goes to the file through a `.part` (the
    /// spilled, signed path), byte for byte; a missing key writes nothing and reads as false.
    @Test func downloadStreamsAnObjectToAFile() async throws {
        let client = try S3TestKit.client()
        let dir = try TempDirectory()
        let body = S3TestKit.bytes(3_000_001, seed: 3)
        #expect(body.count > client.engine.configuration.memoryBufferLimit)
        _ = try await client.put(key: "d/part.jsonl", body: body, contentType: "application/x-ndjson")
        #expect(try await client.download(key: "d/part.jsonl", to: dir.file("part.jsonl")) != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file("part.jsonl"))) == Data(body))
        #expect(!FileManager.default.fileExists(atPath: dir.file("part.jsonl.part")))
        #expect(try await client.download(key: "d/missing", to: dir.file("missing")) == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("missing")))
    }

    /// The first object stays; the second one's bytes never leave the client (the HEAD finds it).
    @Test func ifNoneMatchKeepsTheFirstObjectAndDoesNotSendTheSecondBody() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy)
        let first = S3TestKit.bytes(200_000, seed: 1)
        let second = S3TestKit.bytes(200_000, seed: 2)
        #expect(try await client.put(key: "p/1.jpg", body: first, contentType: "image/jpeg", ifNoneMatch: true) == .created)
        proxy.resetSeen()
        #expect(try await client.put(key: "p/1.jpg", body: second, contentType: "image/jpeg", ifNoneMatch: true) == .alreadyExisted)
        #expect(try await client.get(key: "p/1.jpg") == Data(first))
        let sent = proxy.seen.map(\.bytesIn).reduce(0, +)
        #expect(sent < 10_000, "\(proxy.seen)")
        #expect(!proxy.seen.contains { $0.method == "PUT" }, "\(proxy.seen)")
    }

    /// A writer that slips in between the HEAD and the PUT: the store's If-None-Match check keeps its object.
    @Test func theStoreRefusesAnOverwriteThatRacesTheHead() async throws {
        let client = try S3TestKit.client()
        _ = try await client.put(key: "race", body: [1], contentType: "text/plain")
        // The PUT itself, as it goes out after a HEAD that found nothing.
        var headers = HTTPHeaders()
        headers.set("Content-Type", "text/plain")
        headers.set("If-None-Match", "*")
        let response = try await client.send("PUT", .put, key: "race", headers: headers, body: [2])
        #expect(response.status == 412)
        #expect(try await client.get(key: "race") == Data([1]))
    }

    @Test func listingFollowsContinuationTokensAcrossPages() async throws {
        let client = try S3TestKit.client()
        let keys = (0..<7).map { "g/photos/\($0) é.jpg" } + ["g/index.html", "other/x"]
        for key in keys { _ = try await client.put(key: key, body: Array(key.utf8), contentType: "text/plain") }
        let proxy = try S3TestKit.proxy()
        let viaProxy = try S3TestKit.client(bucket: client.bucket, proxy: proxy)
        let listed = try await viaProxy.list(prefix: "g/", pageSize: 3)
        #expect(listed.map(\.key) == keys.filter { $0.hasPrefix("g/") }.sorted())
        #expect(listed.allSatisfy { $0.size == Int64($0.key.utf8.count) })
        #expect(proxy.seen.filter { $0.method == "GET" }.count == 3, "\(proxy.seen.map(\.target))")
        #expect(try await client.list(prefix: "none/").isEmpty)
    }

    @Test func virtualHostedAddressingNamesTheBucketInTheHost() async throws {
        let gateway = try S3TestKit.gateway()
        let bucket = try gateway.makeBucket()
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(bucket: bucket, proxy: proxy, addressing: .virtualHosted)
        try await client.checkBucket()
        _ = try await client.put(key: "v/k.txt", body: Array("virtual".utf8), contentType: "text/plain")
        #expect(proxy.seen.allSatisfy { !$0.target.hasPrefix("/\(bucket)") }, "\(proxy.seen.map(\.target))")
        // The same object, path-style.
        #expect(try await S3TestKit.client(bucket: bucket).get(key: "v/k.txt") == Data("virtual".utf8))
    }

    @Test func concurrentUploadsFromManyTasks() async throws {
        let client = try S3TestKit.client()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<24 {
                group.addTask {
                    let result = try await client.put(key: "c/\(i)", body: S3TestKit.bytes(10_000 + i, seed: UInt64(i)),
                                                      contentType: "application/octet-stream", ifNoneMatch: true)
                    #expect(result == .created)
                }
            }
            try await group.waitForAll()
        }
        let listed = try await client.list(prefix: "c/")
        #expect(listed.count == 24)
        #expect(try await client.get(key: "c/5") == Data(S3TestKit.bytes(10_005, seed: 5)))
    }
}
