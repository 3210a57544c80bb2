import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing
@testable import GalleryObjectStore

/// Files above the threshold go up in parts; a failed part leaves neither an object nor an upload.
@Suite(.gatewayStarted) struct S3MultipartTests {
    /// 5 MiB parts (S3's smallest), a 5 MiB threshold, two parts in flight.
    static let policy = S3MultipartPolicy(threshold: 5 << 20, partSize: 5 << 20, partsInFlight: 2)

    static func file(_ size: Int, seed: UInt64 = 3) throws -> (TempDirectory, String, [UInt8]) {
        let dir = try TempDirectory()
        let bytes = S3TestKit.bytes(size, seed: seed)
        return (dir, try dir.write(bytes, to: "original.tif"), bytes)
    }

    @Test func aFileAboveTheThresholdGoesUpInPartsAndReadsBackEqual() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy, multipart: Self.policy)
        let (dir, path, bytes) = try Self.file((12 << 20) + 12_345)
        defer { withExtendedLifetime(dir) {} }
        #expect(try await client.putFile(key: "big/original.tif", path: path, contentType: "image/tiff",
                                         cacheControl: "max-age=60", ifNoneMatch: true) == .created)
        #expect(try await client.get(key: "big/original.tif") == Data(bytes))
        let info = try #require(try await client.head(key: "big/original.tif"))
        #expect(info.contentType == "image/tiff" && info.cacheControl == "max-age=60" && info.size == Int64(bytes.count))
        let parts = proxy.seen.filter { $0.method == "PUT" && $0.target.contains("partNumber=") }
        #expect(parts.count == 3, "\(proxy.seen.map(\.target))")
        #expect(proxy.seen.filter { $0.method == "POST" }.count == 2)  // create, complete
        #expect(try await client.listMultipartUploads().isEmpty)
        // Again with If-None-Match: found by the HEAD, no part sent.
        proxy.resetSeen()
        #expect(try await client.putFile(key: "big/original.tif", path: path, contentType: "image/tiff", ifNoneMatch: true) == .alreadyExisted)
        #expect(proxy.seen.map(\.method) == ["HEAD"], "\(proxy.seen)")
    }

    @Test func aFileBelowTheThresholdIsOnePut() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy, multipart: Self.policy)
        let (dir, path, bytes) = try Self.file((5 << 20) - 1)
        defer { withExtendedLifetime(dir) {} }
        #expect(try await client.putFile(key: "small", path: path, contentType: "image/tiff") == .created)
        #expect(proxy.seen.map(\.method) == ["PUT"] && !proxy.seen[0].target.contains("partNumber"), "\(proxy.seen)")
        #expect(try await client.get(key: "small") == Data(bytes))
    }

    /// Part 2 refused (400, not retried): the upload is aborted, no object and no pending upload remain.
    @Test func aFailedPartAbortsTheUpload() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy, multipart: Self.policy)
        let (dir, path, _) = try Self.file((11 << 20))
        defer { withExtendedLifetime(dir) {} }
        proxy.fail(next: 1, status: 400, code: "InvalidPart", method: "PUT", targetContains: "partNumber=2&")
        let error = await #expect(throws: S3Error.self) {
            try await client.putFile(key: "big/failed.tif", path: path, contentType: "image/tiff")
        }
        #expect("\(error!)".contains("s3://\(client.bucket)/big/failed.tif: upload part 2 of 3 failed: HTTP 400 InvalidPart"), "\(error!)")
        #expect(proxy.seen.contains { $0.method == "DELETE" && $0.target.contains("uploadId=") }, "\(proxy.seen.map(\.target))")
        #expect(!proxy.seen.contains { $0.method == "POST" && $0.target.contains("uploadId=") }, "completed: \(proxy.seen.map(\.target))")
        #expect(try await client.head(key: "big/failed.tif") == nil)
        #expect(try await client.listMultipartUploads(prefix: "big/").isEmpty)
        #expect(try await client.list(prefix: "big/").isEmpty)
    }

    @Test func aMissingFileIsAnErrorNamingItsPath() async throws {
        let client = try S3TestKit.client(multipart: Self.policy)
        let missing = await #expect(throws: S3Error.self) {
            try await client.putFile(key: "k", path: "/nonexistent/photo.jpg", contentType: "image/jpeg")
        }
        #expect("\(missing!)".contains("/nonexistent/photo.jpg"))
        #expect(try await client.listMultipartUploads().isEmpty)
    }
}

/// The If-None-Match of a completion, and an upload whose task is cancelled.
@Suite(.gatewayStarted) struct S3MultipartRaceTests {
    /// Another writer publishes the key while the parts go up: the completion is refused (412), the
    /// upload dropped, and the other writer's object stays.
    @Test func aCompletionAfterAnotherWriterPublishedKeepsTheirObject() async throws {
        let client = try S3TestKit.client(multipart: S3MultipartTests.policy)
        let (dir, path, _) = try S3MultipartTests.file(6 << 20)
        defer { withExtendedLifetime(dir) {} }
        let upload = try await client.createUpload(key: "race.tif", contentType: "image/tiff", cacheControl: nil)
        let etags = try await client.uploadParts(upload, path: path, size: 6 << 20)
        #expect(try await client.put(key: "race.tif", body: [9, 9], contentType: "image/tiff") == .created)
        #expect(try await client.complete(upload, etags: etags, ifNoneMatch: true) == .alreadyExisted)
        #expect(try await client.get(key: "race.tif") == Data([9, 9]))
        try await client.abort(upload)
        #expect(try await client.listMultipartUploads().isEmpty)
    }

    /// Cancelled once its first part has gone out: the upload is aborted all the same.
    @Test func aCancelledUploadIsAborted() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy, multipart: S3MultipartPolicy(threshold: 5 << 20, partSize: 5 << 20, partsInFlight: 1))
        let (dir, path, _) = try S3MultipartTests.file(40 << 20)
        defer { withExtendedLifetime(dir) {} }
        let task = Task { try await client.putFile(key: "cancelled.tif", path: path, contentType: "image/tiff") }
        for _ in 0..<600 where !proxy.seen.contains(where: { $0.target.contains("partNumber=1&") }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        let result = await task.result
        #expect(throws: S3Error.self) { try result.get() }
        #expect(proxy.seen.contains { $0.method == "DELETE" && $0.target.contains("uploadId=") }, "\(proxy.seen.map(\.target))")
        #expect(try await client.listMultipartUploads().isEmpty)
        #expect(try await client.head(key: "cancelled.tif") == nil)
    }
}
