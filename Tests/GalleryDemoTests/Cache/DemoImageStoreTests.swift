import Foundation
import Testing
@testable import GalleryDemo

@Suite("Derived-image disk cache")
struct DemoImageStoreTests {
    let fixture: DemoFixture
    let catalogue: DemoCatalogue

    init() throws {
        fixture = try DemoFixture()
        catalogue = DemoCatalogue(pageCount: 5, sourceCount: fixture.sources.files.count)
    }

    private func store(_ renderer: CountingRenderer) -> DemoImageStore {
        DemoImageStore(folder: DemoCacheLocation.folder(root: fixture.cacheRoot, sources: fixture.sources),
                       renderer: renderer, concurrentRenders: 2)
    }

    @Test func concurrentFirstRequestsRenderOnce() async throws {
        let renderer = CountingRenderer(sources: fixture.sources)
        let store = store(renderer)
        let photo = catalogue.photo(ordinal: 0)
        let results = try await withThrowingTaskGroup(of: CachedDemoImage.self) { group in
            for _ in 0..<12 { group.addTask { try await store.image(for: photo, size: .thumbnail) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 12)
        #expect(Set(results.map(\.entityTag)).count == 1)
        #expect(renderer.count(photo, .thumbnail) == 1)
    }

    @Test func secondRunIsServedFromDisk() async throws {
        let photos = (0..<4).map(catalogue.photo(ordinal:))
        let first = CountingRenderer(sources: fixture.sources)
        try await store(first).warm(photos, sizes: [.thumbnail])
        #expect(first.total == 4)

        // A new store on the same folder, as in the next process: nothing is rendered again.
        let second = CountingRenderer(sources: fixture.sources)
        let again = store(second)
        for photo in photos {
            let image = try await again.image(for: photo, size: .thumbnail)
            #expect(FileManager.default.fileExists(atPath: image.path))
        }
        #expect(second.total == 0)

        // Atomic writes leave no temporary files behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: again.folder.path)
        #expect(names.count == 4)
        #expect(!names.contains { $0.hasSuffix(".part") })
    }

    @Test func staleTemporaryFilesAreRemoved() throws {
        let store = store(CountingRenderer(sources: fixture.sources))
        try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
        let stale = store.folder.appendingPathComponent(".1-1.jpg.99.A.part")
        let fresh = store.folder.appendingPathComponent(".2-1.jpg.99.B.part")
        try Data([1, 2, 3]).write(to: stale)
        try Data([1, 2, 3]).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: stale.path)
        #expect(store.removeStaleTemporaryFiles() == 1)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
    }

    @Test func cacheFolderIsVersionStampedPerSourceSet() throws {
        let folder = DemoCacheLocation.folder(root: fixture.cacheRoot, sources: fixture.sources)
        #expect(folder.lastPathComponent.hasPrefix("demo-v\(DemoCacheLocation.derivationVersion)-"))
        // Dropping one source gives another fingerprint, hence another folder.
        try FileManager.default.removeItem(at: fixture.sources.files[0])
        let fewer = try DemoSourcePhotos(directory: fixture.sources.directory)
        #expect(DemoCacheLocation.folder(root: fixture.cacheRoot, sources: fewer) != folder)
    }

    @Test func missingSourcesAreATypedError() throws {
        let empty = fixture.folder.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(throws: DemoError.self) { try DemoSourcePhotos(directory: empty) }
    }
}
