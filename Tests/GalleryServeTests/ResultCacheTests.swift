import Foundation
import GallerySystem
import GalleryTestSupport
import Testing
@testable import GalleryServe

/// The persistent result cache's eviction order: least recently used first, also after a restart.
@Suite struct ResultCacheTests {
    static func result(_ fill: UInt8) -> StoredResult {
        StoredResult(header: .init(contentType: "image/jpeg", etag: "\"\(fill)\"", sourceValidator: nil, checked: 0),
                     body: [UInt8](repeating: fill, count: 2_900))
    }

    /// Three results fill 90% of the limit; the oldest written is read (a hit), the cache restarts, and a
    /// fourth pushes it over: the one evicted is the least recently *used*, not the oldest written.
    @Test func aHitBeforeARestartKeepsItsPlaceInLine() async throws {
        let dir = try TempDirectory(prefix: "result-cache")
        defer { dir.remove() }
        let folder = dir.file("cache")
        var cache = try ResultCache(folder: folder, limit: 10_000)
        for (key, fill) in [("a", UInt8(1)), ("b", 2), ("c", 3)] {
            await cache.write(key, Self.result(fill))
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await cache.read("a")?.body.first == 1)
        cache = try ResultCache(folder: folder, limit: 10_000)
        #expect(cache.usage.count == 3)
        await cache.write("d", Self.result(4))
        #expect(await cache.read("a")?.body.first == 1, "the result used last before the restart was evicted")
        #expect(await cache.read("b") == nil, "the least recently used result was kept")
        #expect(await cache.read("d")?.body.first == 4)
        #expect(try Syscall.names(in: folder).filter { $0.count == 64 }.count == cache.usage.count)
    }

    /// A file torn or replaced behind the cache's back is a miss, and its entry and file are gone.
    @Test func aForeignFileIsAMissAndRemoved() async throws {
        let dir = try TempDirectory(prefix: "result-cache")
        defer { dir.remove() }
        let folder = dir.file("cache")
        let cache = try ResultCache(folder: folder, limit: 10_000)
        await cache.write("a", Self.result(1))
        let name = try #require(try Syscall.names(in: folder).first { $0.count == 64 })
        try AtomicWrite.replace(folder + "/" + name, with: [0xFF, 0xFF, 0xFF, 0xFF, 1], durable: false)
        #expect(await cache.read("a") == nil)
        #expect(cache.usage.count == 0 && !Syscall.exists(folder + "/" + name))
    }
}
