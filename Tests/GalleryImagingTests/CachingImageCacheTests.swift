import GalleryImaging
import Testing

@Suite("ImageCache")
struct CachingImageCacheTests {
    static func bitmap(_ side: Int, fill: UInt8 = 7) -> Bitmap {
        Bitmap(width: side, height: side, format: .rgba8,
               pixels: [UInt8](repeating: fill, count: side * side * 4))
    }

    @Test func keysDifferingOnlyInSizeValidatorOrOptionsDoNotCollide() {
        let cache = ImageCache(costLimit: 1 << 20)
        let url = "http://127.0.0.1:8080/photos/1.jpg"
        let keys: [ImageCacheKey] = [
            ImageCacheKey(source: url),
            ImageCacheKey(source: url, size: .longestEdge(256)),
            ImageCacheKey(source: url, size: .longestEdge(512)),
            ImageCacheKey(source: url, validator: .etag("\"abc\""), size: .longestEdge(256)),
            ImageCacheKey(source: url, validator: .etag("W/\"abc\""), size: .longestEdge(256)),
            ImageCacheKey(source: url, validator: .lastModified("Sun, 22 Nov 2026 07:00:00 GMT")),
            ImageCacheKey(source: url, validator: .file(modified: 1_700_000_000, size: 1234)),
            ImageCacheKey(source: url, validator: .file(modified: 1_700_000_000, size: 1235)),
            ImageCacheKey(source: url, size: .longestEdge(256), options: "oriented"),
            ImageCacheKey(source: "sha256:0f1e", size: .longestEdge(256)),
        ]
        #expect(Set(keys).count == keys.count)
        for (i, key) in keys.enumerated() { cache[key] = Self.bitmap(4, fill: UInt8(i)) }
        for (i, key) in keys.enumerated() { #expect(cache[key]?.pixels.first == UInt8(i)) }
        #expect(cache.statistics.count == keys.count && cache.statistics.hits == keys.count)
    }

    @Test func costIsByteCountAndSubscriptSetNilRemoves() {
        let cache = ImageCache(costLimit: 100_000, countLimit: 10)
        let key = ImageCacheKey(source: "a", size: .longestEdge(64))
        cache[key] = Self.bitmap(64) // 16 KiB
        #expect(cache.statistics.totalCost == 64 * 64 * 4)
        cache.put(Self.bitmap(32), forKey: key)
        #expect(cache.statistics.totalCost == 32 * 32 * 4 && cache.statistics.replacements == 1)
        cache[key] = nil
        #expect(cache[key] == nil && cache.statistics.totalCost == 0 && cache.statistics.removals == 1)
    }

    @Test func limitsEvictOldestAndRefuseOversizedOriginals() {
        // 4 thumbnails of 16 KiB fit in 64 KiB; a 64 KiB original exceeds the 1/4 entry limit.
        let cache = ImageCache(costLimit: 4 * 64 * 64 * 4)
        #expect(cache.entryCostLimit == 64 * 64 * 4)
        let thumbs = (0..<5).map { ImageCacheKey(source: "p\($0)", size: .longestEdge(64)) }
        for key in thumbs.prefix(4) { cache.put(Self.bitmap(64), forKey: key) }
        _ = cache.get(thumbs[0])
        cache.put(Self.bitmap(64), forKey: thumbs[4])
        #expect(cache.get(thumbs[1]) == nil, "p1 was the least recently used")
        #expect(cache.get(thumbs[0]) != nil)
        cache.put(Self.bitmap(128), forKey: ImageCacheKey(source: "p0"))
        #expect(cache.get(ImageCacheKey(source: "p0")) == nil && cache.statistics.rejections == 1)
        #expect(cache.statistics.count == 4)
        cache.removeAll()
        #expect(cache.statistics.count == 0 && cache.statistics.totalCost == 0)
    }

    @Test func sharedAndIndependentInstances() {
        let a = ImageCache(costLimit: 1 << 20)
        let b = ImageCache(costLimit: 2 << 20, countLimit: 3)
        let key = ImageCacheKey(source: "independent-instances-test")
        a[key] = Self.bitmap(2)
        #expect(b[key] == nil && ImageCache.shared[key] == nil)
        #expect(b.costLimit == 2 << 20 && b.countLimit == 3)
        #expect(ImageCache.shared.costLimit == 256 << 20 && ImageCache.shared.entryCostLimit == 64 << 20)
        // Works through the protocol seam the pipeline uses.
        let seam: any ImageCaching = a
        seam[key] = nil
        #expect(a[key] == nil)
    }
}
