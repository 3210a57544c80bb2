import Foundation
import GalleryTestSupport
import GalleryTestTraits
import GalleryTransfer
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// `merge` into the store, seen from the wire (a proxy in front of the real RGW): the parts streamed
/// to the work folder, the earlier merge's stale keys deleted from its key list, never a listing of
/// the gallery.
@Suite(.gatewayStarted) struct S3MergeTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// Shard parts of the photos `ids` (photo i listed on page (i+2)/3; odd pages shard 0, even shard 1),
    /// written in a fresh folder and uploaded under `prefix`. Returns the folder.
    static func uploadParts(_ ids: [Int], _ client: S3Client, prefix: String) async throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        let entries = ids.map { GalleryMergeTests.entry($0, page: ($0 + 2) / 3) }
        for shard in 0..<2 {
            try GalleryMergeTests.writePart(folder.path, shard, of: 2, entries.filter { ($0.metadata.page ?? 0) % 2 == (shard == 0 ? 1 : 0) })
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shards") {
            _ = try await client.putFile(key: prefix + "shards/" + name, path: folder.path + "/shards/" + name,
                                         contentType: "application/octet-stream")
        }
        return folder
    }

    /// What `fetch-gallery merge s3://...` does, on a store working in `work`.
    static func merge(_ client: S3Client, prefix: String, work: String, perPage: Int) async throws -> (MergeReport, deleted: Int) {
        let store = try S3GalleryStore(client: client, location: S3Location(bucket: client.bucket, prefix: prefix),
                                       workFolder: work, inFlight: 8, checkpointInterval: nil)
        var merge = GalleryMerge(folder: store.folder)
        merge.startedShards = try await store.fetchParts()
        merge.store = store
        merge.pageOptions.photosPerIndexPage = perPage
        let report = try merge.run(generated: date)
        return (report, try await store.finishMerge())
    }

    /// The bucket under `prefix` holds exactly the gallery a local merge of `parts` writes, byte for
    /// byte, beside the parts and the key list; the list names the gallery's files.
    static func expectBucketEqualsLocalMerge(_ reader: S3Client, prefix: String, parts: TemporaryFolder, perPage: Int) async throws {
        var local = GalleryMerge(folder: parts.path)
        local.pageOptions.photosPerIndexPage = perPage
        _ = try local.run(generated: date)
        let gallery = Set(parts.files().filter { !$0.hasPrefix(".fetch-gallery/") && !$0.hasPrefix("shards/") })
        let keys = try await reader.list(prefix: prefix).map { String($0.key.dropFirst(prefix.count)) }
        let partsInStore = Set(parts.files().filter { $0.hasPrefix("shards/") }).union([MergeKeyList.storePath])
        #expect(Set(keys) == gallery.union(partsInStore),
                "only in the bucket: \(Set(keys).subtracting(gallery.union(partsInStore)).sorted()); missing: \(gallery.union(partsInStore).subtracting(keys).sorted())")
        for path in gallery.sorted() {
            let stored = try await reader.get(key: prefix + path)
            let file = try Data(contentsOf: URL(fileURLWithPath: parts.path + "/" + path))
            #expect(stored == file, "\(path)")
        }
        let list = try #require(try await reader.get(key: prefix + MergeKeyList.storePath))
        #expect(Set(String(decoding: list, as: UTF8.self).split(separator: "\n").map(String.init)) == gallery)
    }

    /// The prefixes of the ListObjects requests the proxy saw.
    static func listedPrefixes(_ proxy: S3FaultProxy) -> [String] {
        proxy.seen.filter { $0.method == "GET" && $0.target.contains("list-type=2") }.map { seen in
            let query = seen.target.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
            let prefix = query.split(separator: "&").first { $0.hasPrefix("prefix=") }?.dropFirst("prefix=".count)
            return prefix.map { String($0).removingPercentEncoding ?? String($0) } ?? "(the whole bucket)"
        }
    }

    /// Shards re-run with fewer photos, merged with fewer photos per index page: the index pages past
    /// the new last one and the pages of the photos gone are deleted from the bucket, after index.html
    /// is up, whether the work folder is fresh (the key list alone says what is stale) or the earlier
    /// merge's; every other key is the local merge's file; the merge lists only the shards' areas.
    @Test func anEarlierMergesStaleKeysAreDeletedWithoutListingTheGallery() async throws {
        let proxy = try S3TestKit.proxy()
        defer { proxy.stop() }
        let client = try S3TestKit.client(proxy: proxy)
        let reader = try S3TestKit.client(bucket: client.bucket)
        let first = TemporaryFolder(), fresh = TemporaryFolder()
        defer { first.remove(); fresh.remove() }

        let all = try await Self.uploadParts(Array(1...9), client, prefix: "m/")
        defer { all.remove() }
        let (report, deleted) = try await Self.merge(client, prefix: "m/", work: first.path, perPage: 2)
        #expect(report.isComplete && report.photosOK == 9 && deleted == 0)
        try await Self.expectBucketEqualsLocalMerge(reader, prefix: "m/", parts: all, perPage: 2)
        #expect(try await reader.head(key: "m/index-5.html") != nil)

        // Photos 4 and 8 gone, 3 a page: index-4 and index-5 and two photo pages are stale. A fresh work
        // folder knows nothing of them but the key list.
        let fewer = try await Self.uploadParts([1, 2, 3, 5, 6, 7, 9], client, prefix: "m/")
        defer { fewer.remove() }
        proxy.resetSeen()
        // index.html's answer held: a deletion sent before the client had it would arrive meanwhile.
        proxy.delayAnswers(method: "PUT", targetContains: "/m/index.html", by: 0.5)
        let again = try await Self.merge(client, prefix: "m/", work: fresh.path, perPage: 3)
        #expect(again.0.photosOK == 7 && again.deleted == 4)
        try await Self.expectBucketEqualsLocalMerge(reader, prefix: "m/", parts: fewer, perPage: 3)
        Self.expectDeletesAfterTheEntryPoint(proxy, count: 4)
        let prefixes = Self.listedPrefixes(proxy)
        #expect(!prefixes.isEmpty && prefixes.allSatisfy { $0 == "m/shards/" || $0 == "m/.fetch-gallery/shards/" }, "\(prefixes)")

        // Back in the first work folder, which still holds merge one's pages: those it removes locally
        // are deleted from the bucket too, and also only once index.html is up.
        let fewest = try await Self.uploadParts([1, 2, 3, 5, 6], client, prefix: "m/")
        defer { fewest.remove() }
        proxy.resetSeen()
        let third = try await Self.merge(client, prefix: "m/", work: first.path, perPage: 3)
        #expect(third.0.photosOK == 5 && third.deleted == 7)
        try await Self.expectBucketEqualsLocalMerge(reader, prefix: "m/", parts: fewest, perPage: 3)
        Self.expectDeletesAfterTheEntryPoint(proxy, count: 7)
        #expect(Self.listedPrefixes(proxy).allSatisfy { $0 == "m/shards/" || $0 == "m/.fetch-gallery/shards/" })
    }

    /// A part whose download breaks off is never taken for the part: through every attempt the fetch
    /// fails naming the key, no file has the part's name and nothing is written to the bucket; cut
    /// once, the download resumes and the part arrives whole.
    @Test func aPartCutShortIsNotTakenAsDone() async throws {
        let proxy = try S3TestKit.proxy()
        defer { proxy.stop() }
        let client = try S3TestKit.client(proxy: proxy)
        let reader = try S3TestKit.client(bucket: client.bucket)
        let work = TemporaryFolder()
        defer { work.remove() }
        let parts = try await Self.uploadParts(Array(1...60), client, prefix: "c/")
        defer { parts.remove() }
        let name = "1-of-2.photos.jsonl"
        let whole = try Data(contentsOf: URL(fileURLWithPath: parts.path + "/shards/" + name))
        #expect(whole.count > 8_000)
        let store = try S3GalleryStore(client: client, location: S3Location(bucket: client.bucket, prefix: "c/"),
                                       workFolder: work.path, inFlight: 8, checkpointInterval: nil)
        // Every attempt (5, each resuming where the last one stopped) gets 1,000 bytes of the body.
        proxy.cutResponses(next: 100, targetContains: "/c/shards/" + name, afterBodyBytes: 1_000)
        do {
            _ = try await store.fetchParts()
            Issue.record("a part cut short was fetched")
        } catch {
            #expect(error.description.contains("c/shards/" + name), "\(error)")
        }
        #expect(!work.exists("shards/" + name))
        #expect(try await reader.head(key: "c/index.html") == nil)
        // A merge of what the folder holds fails or leaves the shard out, never takes it for finished.
        let partial = try? GalleryMerge(folder: work.path, shards: 2).run()
        #expect(partial.map { !$0.isComplete && $0.photosOK == 30 } ?? true)

        proxy.clearFaults()
        proxy.resetSeen()
        proxy.cutResponses(next: 1, targetContains: "/c/shards/" + name, afterBodyBytes: 1_000)
        _ = try await store.fetchParts()
        #expect(try Data(contentsOf: URL(fileURLWithPath: work.path + "/shards/" + name)) == whole)
        #expect(proxy.seen.filter { $0.method == "GET" && $0.target.hasSuffix("/c/shards/" + name) }.count == 2)
        var merge = GalleryMerge(folder: work.path)
        merge.store = store
        #expect(try merge.run().photosOK == 60)
        try await store.finishMerge()
        #expect(try await reader.head(key: "c/index.html") != nil)
    }

    /// `count` DELETEs, each sent after the client had the answer to the PUT of index.html, and the new
    /// key list's PUT sent after the answer to every DELETE (the proxy's clock: arrivals and answers).
    static func expectDeletesAfterTheEntryPoint(_ proxy: S3FaultProxy, count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = proxy.seen.filter { $0.injected == nil }
        let deletes = seen.filter { $0.method == "DELETE" }
        let entryPoint = seen.last { $0.method == "PUT" && $0.target.hasSuffix("/m/index.html") }
        let list = seen.last { $0.method == "PUT" && $0.target.hasSuffix("/m/shards/merge.keys") }
        #expect(deletes.count == count, "\(deletes.map(\.target))", sourceLocation: sourceLocation)
        #expect(entryPoint?.answered.map { up in deletes.allSatisfy { $0.arrived > up } } ?? false,
                "a page was deleted before index.html was up: \(entryPoint as Any), \(deletes)", sourceLocation: sourceLocation)
        #expect(list.map { l in deletes.allSatisfy { ($0.answered ?? .max) < l.arrived } } ?? false,
                "the key list went before a deletion was done: \(list as Any), \(deletes)", sourceLocation: sourceLocation)
    }
}
