import Foundation
import GalleryTestSupport
import GalleryTestTraits
import GalleryTransfer
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The S3 store's ordering promises, seen from the wire (a proxy in front of the real RGW).
@Suite(.gatewayStarted) struct S3GalleryStoreTests {
    static func store(_ client: S3Client, prefix: String, folder: String) throws -> S3GalleryStore {
        try S3GalleryStore(client: client, location: S3Location(bucket: client.bucket, prefix: prefix), workFolder: folder,
                           inFlight: 8, checkpointInterval: nil)
    }

    /// `index.html` goes last, sent only once the client had the answer to every page handed over with
    /// it; the journal goes only after every file handed over before the checkpoint is stored, with the
    /// list of stored files before it. The pages' answers are held, so a request sent before they came
    /// back arrives at the proxy before their answers leave it (the proxy's clock orders both).
    @Test func theEntryPointAndTheJournalWaitForWhatTheyName() async throws {
        let proxy = try S3TestKit.proxy()
        defer { proxy.stop() }
        proxy.delayAnswers(method: "PUT", targetContains: "/g/pages/", by: 0.3)
        let client = try S3TestKit.client(proxy: proxy)
        let dir = try TempDirectory()
        let store = try Self.store(client, prefix: "g/", folder: dir.path)
        try await store.prepare(journal: GalleryNaming.journalPath)
        var pages: [String] = []
        for i in 0..<40 {
            let path = "pages/\(String(format: "%03d", i))/\(i)-p.html"
            try AtomicFile.write(Array(repeating: UInt8(ascii: "x"), count: 20_000 + i), to: dir.path + "/" + path)
            pages.append(path)
        }
        try AtomicFile.write(Array("<html>".utf8), to: dir.path + "/index.html")
        store.publish("index.html")  // handed over first, stored last
        store.publish(pages)
        try AtomicFile.write(Array("{}\n".utf8), to: dir.path + "/" + GalleryNaming.journalPath)
        try await store.checkpoint(journal: GalleryNaming.journalPath)
        try await store.flush()
        let puts = proxy.seen.filter { $0.method == "PUT" }
        let index = try #require(puts.first { $0.target.hasSuffix("/g/index.html") })
        let journal = try #require(puts.first { $0.target.hasSuffix("/g/.fetch-gallery/journal.jsonl") })
        let listing = try #require(puts.first { $0.target.hasSuffix("/g/.fetch-gallery/published.tsv") })
        let pageAnswers = puts.filter { $0.target.contains("/g/pages/") }.map { $0.answered ?? .max }
        #expect(pageAnswers.count == 40)
        let lastPageAnswer = try #require(pageAnswers.max())
        #expect(lastPageAnswer < index.arrived, "index.html was sent before every page was stored: \(puts)")
        #expect(lastPageAnswer < listing.arrived, "the list of stored files was sent before every page was stored: \(puts)")
        #expect((listing.answered ?? .max) < journal.arrived, "the journal was sent before the list was stored: \(puts)")
        #expect(store.uploaded.objects == 41)
        for page in pages { #expect(store.size(of: page) != nil) }
    }

    /// A fresh work folder learns from the store what is stored: the journal and the list come back,
    /// and the photo files named there read as present without being in the folder.
    @Test func aFreshWorkFolderResumesFromTheStore() async throws {
        let client = try S3TestKit.client()
        let first = try TempDirectory(), second = try TempDirectory()
        let store = try Self.store(client, prefix: "r/", folder: first.path)
        try await store.prepare(journal: GalleryNaming.journalPath)
        let photo = "photos/001/1-a.jpg"
        try AtomicFile.write(S3TestKit.bytes(5_000), to: first.path + "/" + photo)
        store.publish(photo)
        try AtomicFile.write(Array("{\"journal\":1}\n".utf8), to: first.path + "/" + GalleryNaming.journalPath)
        try await store.checkpoint(journal: GalleryNaming.journalPath)
        // Published originals leave the work folder; the store still answers for them.
        #expect(!FileManager.default.fileExists(atPath: first.path + "/" + photo))
        #expect(store.size(of: photo) == 5_000)

        let again = try Self.store(client, prefix: "r/", folder: second.path)
        #expect(again.size(of: photo) == nil)
        try await again.prepare(journal: GalleryNaming.journalPath)
        #expect(again.size(of: photo) == 5_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: second.path + "/" + GalleryNaming.journalPath)) == Data("{\"journal\":1}\n".utf8))
        // Its bytes come back when a run needs them.
        #expect(try await again.materialize(photo))
        #expect(try Data(contentsOf: URL(fileURLWithPath: second.path + "/" + photo)) == Data(S3TestKit.bytes(5_000)))
    }

    /// An upload that fails through every attempt comes out of flush() naming the bucket and key.
    @Test func aFailedUploadComesOutOfFlush() async throws {
        let proxy = try S3TestKit.proxy()
        defer { proxy.stop() }
        let client = try S3TestKit.client(proxy: proxy)
        let dir = try TempDirectory()
        let store = try Self.store(client, prefix: "f/", folder: dir.path)
        try AtomicFile.write(Array("page".utf8), to: dir.path + "/pages/001/1-a.html")
        proxy.fail(next: 100, status: 500, code: "InternalError", method: "PUT")
        store.publish("pages/001/1-a.html")
        await #expect(throws: GalleryError.self) { try await store.flush() }
        do { try await store.flush() } catch {
            #expect(error.description.contains("f/pages/001/1-a.html"), "\(error)")
        }
    }

    /// A run's stale pages (the index pages past a new last one) leave the store only after the new
    /// `index.html` is up, so no stored page links to a deleted one meanwhile; a page written again
    /// after its removal is kept.
    @Test func stalePagesAreDeletedAfterTheEntryPoint() async throws {
        let proxy = try S3TestKit.proxy()
        defer { proxy.stop() }
        let client = try S3TestKit.client(proxy: proxy)
        let reader = try S3TestKit.client(bucket: client.bucket)
        let dir = try TempDirectory()
        let store = try Self.store(client, prefix: "s/", folder: dir.path)
        for page in ["index.html", "index-2.html", "index-3.html"] {
            try AtomicFile.write(Array("<html>\(page)".utf8), to: dir.path + "/" + page)
            store.publish(page)
        }
        try await store.flush()
        proxy.resetSeen()
        // index.html's answer held: a deletion sent before the client had it would arrive meanwhile.
        proxy.delayAnswers(method: "PUT", targetContains: "/s/index.html", by: 0.5)
        // Written again with two index pages: index-3 is stale; index-2 is removed, then written again.
        store.remove("index-3.html")
        store.remove("index-2.html")
        try AtomicFile.write(Array("<html>2 again".utf8), to: dir.path + "/index-2.html")
        store.publish("index-2.html")
        try AtomicFile.write(Array("<html>1 again".utf8), to: dir.path + "/index.html")
        store.publish("index.html")
        try await store.flush()
        let seen = proxy.seen.filter { $0.injected == nil }
        let entryPoint = try #require(seen.last { $0.method == "PUT" && $0.target.hasSuffix("/s/index.html") })
        let deletes = seen.filter { $0.method == "DELETE" }
        #expect(deletes.map { $0.target.hasSuffix("/s/index-3.html") } == [true], "\(seen.map { "\($0.method) \($0.target)" })")
        let up = try #require(entryPoint.answered)
        #expect(deletes.allSatisfy { $0.arrived > up }, "index-3.html was deleted before index.html was up: \(seen)")
        #expect(try await reader.head(key: "s/index-3.html") == nil)
        #expect(try await reader.get(key: "s/index-2.html") == Data("<html>2 again".utf8))
    }

    /// A store nobody holds is freed: its uploads task reaches it weakly, so `deinit` runs and closes
    /// the list of stored files it keeps open (with a strong reference there, no store was ever freed).
    @Test func aDroppedStoreClosesItsDescriptor() async throws {
        let client = try S3TestKit.client()
        let dir = try TempDirectory()
        func descriptors() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.filter { name in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name))?.hasPrefix(dir.path) == true
            }.count
        }
        weak var dropped: S3GalleryStore?
        do {
            let store = try Self.store(client, prefix: "d/", folder: dir.path)
            dropped = store
            try AtomicFile.write(Array("page".utf8), to: dir.path + "/pages/001/1-a.html")
            store.publish("pages/001/1-a.html")
            try await store.flush()
            #expect(store.uploaded.objects == 1)
            #expect(descriptors() == 1, "the store keeps published.tsv open while it lives")
        }
        // The last upload's task lets go of the store just after it resumed the flush.
        let deadline = ContinuousClock.now + .seconds(10)
        while (dropped != nil || descriptors() > 0), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(dropped == nil, "the store outlived its last reference")
        #expect(descriptors() == 0, "the dropped store's descriptor is still open")
    }
}
