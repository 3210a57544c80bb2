import Foundation
import GalleryObjectStore
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// One contract, both kinds: every test runs against a folder and against a bucket of the real RADOS
/// Gateway (under a prefix, with S3's smallest parts so a stream of 11 MiB goes up in three).
@Suite(.gatewayStarted) struct ObjectStoreConformanceTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case folder, s3
        var testDescription: String { rawValue }
    }

    /// A fresh, empty store of `kind` (its temporary folder kept alive by the caller).
    static func store(_ kind: Kind, in dir: TempDirectory) throws -> any ObjectStore {
        switch kind {
        case .folder:
            return FolderObjectStore(root: dir.file("objects"))
        case .s3:
            let client = try S3TestKit.client(multipart: S3MultipartPolicy(threshold: 5 << 20, partSize: 5 << 20, partsInFlight: 2))
            return S3ObjectStore(client: client, location: try S3Location(bucket: client.bucket, prefix: "conformance"),
                                 spoolFolder: dir.file("spool"), uploads: 4)
        }
    }

    @Test(arguments: Kind.allCases)
    func aFileAndBytesPutReadBackAndListByPrefix(kind: Kind) async throws {
        let dir = try TempDirectory()
        let store = try Self.store(kind, in: dir)
        try await store.check(prefix: "")
        let one = S3TestKit.bytes(70_000, seed: 1), two = Array("two\n".utf8)
        let path = try dir.write(one, to: "one.bin")
        #expect(try await store.put(file: path, as: "a/one.bin", ObjectPutOptions()) == .created)
        #expect(try await store.put(bytes: two, as: "a/two.txt", ObjectPutOptions(contentType: "text/plain")) == .created)
        #expect(try await store.put(bytes: [1, 2, 3], as: "ab/three", ObjectPutOptions()) == .created)
        #expect(try await store.get("a/one.bin") == one)
        #expect(try await store.get(path: "a/two.txt", store: store, dir: dir) == two)
        #expect(try await store.list(prefix: "a/") == [StoredObject(key: "a/one.bin", size: 70_000), StoredObject(key: "a/two.txt", size: 4)])
        #expect(try await store.list(prefix: "a").map(\.key) == ["a/one.bin", "a/two.txt", "ab/three"])
        #expect(try await store.list(prefix: "c/").isEmpty)
        // ifAbsent keeps what is there (both a small and a large file); without it, the object is replaced.
        #expect(try await store.put(bytes: [9], as: "a/two.txt", ObjectPutOptions(ifAbsent: true)) == .alreadyExisted)
        #expect(try await store.put(file: path, as: "a/two.txt", ObjectPutOptions(ifAbsent: true)) == .alreadyExisted)
        #expect(try await store.get("a/two.txt") == two)
        #expect(try await store.put(bytes: [9], as: "a/two.txt", ObjectPutOptions()) == .created)
        #expect(try await store.get("a/two.txt") == [9])
    }

    @Test(arguments: Kind.allCases)
    func aStreamOfSeveralPartsIsStoredWholeOnlyWhenCompleted(kind: Kind) async throws {
        let dir = try TempDirectory()
        let store = try Self.store(kind, in: dir)
        let bytes = S3TestKit.bytes((11 << 20) + 12_345, seed: 7)
        let writer = try store.writer(for: "shards/00000.tar", ObjectPutOptions(contentType: "application/x-tar"))
        for start in stride(from: 0, to: bytes.count, by: 1 << 20) {
            try writer.write(Array(bytes[start..<min(start + (1 << 20), bytes.count)]))
        }
        try writer.close()
        #expect(try await store.get("shards/00000.tar") == nil, "visible before it was completed")
        #expect(try await store.list(prefix: "shards/").isEmpty)
        #expect(try await writer.complete() == Int64(bytes.count))
        #expect(try await store.get("shards/00000.tar") == bytes)
        #expect(try await store.list(prefix: "shards/") == [StoredObject(key: "shards/00000.tar", size: Int64(bytes.count))])
        #expect(try await store.unfinishedUploads(prefix: "").isEmpty)
        let copy = dir.file("copy.tar")
        #expect(try await store.get("shards/00000.tar", to: copy) == Int64(bytes.count))
        #expect(try dir.read("copy.tar") == bytes)
    }

    /// A stream left neither completed nor discarded (a run killed while it wrote) is found by its key
    /// and aborted; nothing of it is ever listed or read.
    @Test(arguments: Kind.allCases)
    func anUnfinishedUploadIsFoundAndAborted(kind: Kind) async throws {
        let dir = try TempDirectory()
        let store = try Self.store(kind, in: dir)
        let writer = try store.writer(for: "x/killed.tar", ObjectPutOptions())
        try writer.write(S3TestKit.bytes(6 << 20, seed: 3))
        var unfinished: [UnfinishedUpload] = []
        for _ in 0..<200 where unfinished.isEmpty {  // S3: the first part begins the upload on a task of its own
            unfinished = try await store.unfinishedUploads(prefix: "x/")
            if unfinished.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(unfinished.map(\.key) == ["x/killed.tar"])
        #expect(try await store.unfinishedUploads(prefix: "y/").isEmpty)
        #expect(try await store.list(prefix: "").isEmpty)
        // The key written again (a run resumed): aborting the old upload leaves the new stream alone.
        let again = try store.writer(for: "x/killed.tar", ObjectPutOptions())
        try again.write(Array("whole".utf8))
        for upload in unfinished { try await store.abort(upload) }
        // Aborting one already gone is fine.
        for upload in unfinished { try await store.abort(upload) }
        try again.close()
        #expect(try await again.complete() == 5)
        #expect(try await store.unfinishedUploads(prefix: "").isEmpty)
        writer.discard()
        #expect(try await store.get("x/killed.tar") == Array("whole".utf8))
    }

    @Test(arguments: Kind.allCases)
    func deleteRemovesAnObjectAndAMissingKeyIsNoError(kind: Kind) async throws {
        let dir = try TempDirectory()
        let store = try Self.store(kind, in: dir)
        _ = try await store.put(bytes: [1], as: "d/one", ObjectPutOptions())
        _ = try await store.put(bytes: [2], as: "d/two", ObjectPutOptions())
        try await store.delete("d/one")
        try await store.delete("d/one")
        try await store.delete("never/was")
        #expect(try await store.list(prefix: "d/").map(\.key) == ["d/two"])
        #expect(try await store.get("d/one") == nil)
        #expect(try await store.get("d/one", to: dir.file("nothing")) == nil)
        #expect(!FileManager.default.fileExists(atPath: dir.file("nothing")))
    }

    /// A store that cannot be written (a bucket that does not exist; a folder whose root is a file) fails
    /// every put and stream with an error naming where.
    @Test(arguments: Kind.allCases)
    func aStoreThatCannotBeWrittenFailsNamingWhere(kind: Kind) async throws {
        let dir = try TempDirectory()
        let store: any ObjectStore
        let place: String
        switch kind {
        case .folder:
            place = try dir.write([0], to: "not-a-folder")
            store = FolderObjectStore(root: place)
        case .s3:
            let client = try S3TestKit.client(bucket: "fg-no-such-bucket-\(UInt32.random(in: 0...UInt32.max))")
            place = "s3://\(client.bucket)"
            store = S3ObjectStore(client: client, location: try S3Location(bucket: client.bucket, prefix: "p"),
                                  spoolFolder: dir.file("spool"), uploads: 2)
        }
        let put = await #expect(throws: ObjectStoreError.self) { try await store.put(bytes: [1], as: "k/v", ObjectPutOptions()) }
        #expect(put.map { "\($0)".contains(place) } == true, "\(String(describing: put))")
        let checked = await #expect(throws: ObjectStoreError.self) { try await store.check(prefix: "k/") }
        #expect(checked.map { "\($0)".contains(place) } == true, "\(String(describing: checked))")
        let streamed = await #expect(throws: ObjectStoreError.self) {
            let writer = try store.writer(for: "k/stream", ObjectPutOptions())
            try writer.write([1, 2, 3])
            try writer.close()
            _ = try await writer.complete()
        }
        #expect(streamed.map { "\($0)".contains(place) } == true, "\(String(describing: streamed))")
    }
}

extension ObjectStore {
    /// The object read back through a local file (``get(_:to:)``).
    fileprivate func get(path key: String, store: any ObjectStore, dir: TempDirectory) async throws -> [UInt8]? {
        let local = dir.file("read-back-\(UInt32.random(in: 0...UInt32.max))")
        guard try await get(key, to: local) != nil else { return nil }
        return try dir.read((local as NSString).lastPathComponent)
    }
}
