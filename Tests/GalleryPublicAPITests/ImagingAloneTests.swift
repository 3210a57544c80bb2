import GalleryImaging
import GalleryTestSupport
import Testing

/// Codecs, scaler and cache without networking: only `GalleryImaging` is imported here.
@Suite struct ImagingAloneTests {
    @Test func decodeScaleCacheAndEncode() throws {
        let bytes = try Corpus.bytes("exif-orientation/Landscape_6.jpg")
        let info = try ImageDecoder.probe(bytes, name: "photo")
        #expect(info.width == 1200 && info.height == 1800 && info.orientation == .right)

        let decoded = try ImageDecoder.decode(bytes, name: "photo", options: DecodeOptions(target: .longestEdge(300)))
        #expect(decoded.scaleDenominator > 1)  // reduced in the codec
        let thumbnail = Thumbnailer(longestEdge: 300).render(decoded)
        #expect(thumbnail.width == 300 && thumbnail.height == 200)

        let cache = ImageCache(costLimit: 1 << 20)
        let key = ImageCacheKey(source: "photo", validator: .etag("\"v1\""), size: .longestEdge(300))
        cache[key] = thumbnail
        #expect(cache[key] == thumbnail)
        #expect(cache[ImageCacheKey(source: "photo", validator: .etag("\"v2\""), size: .longestEdge(300))] == nil)
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)

        let jpeg = try ImageEncoder.encodeJPEG(thumbnail, quality: 90)
        let png = try ImageEncoder.encodePNG(thumbnail)
        #expect(ImageFormat.sniff(jpeg) == .jpeg && ImageFormat.sniff(png) == .png)
        let fromPNG = try ImageDecoder.decode(png, name: "thumb.png").bitmap
        #expect(fromPNG == thumbnail)  // lossless
        let fromJPEG = try ImageDecoder.decode(jpeg, name: "thumb.jpg").bitmap
        #expect(fromJPEG.width == 300 && fromJPEG.height == 200)
    }

    @Test func bitmapsGiveSafeAccessToTheirPixels() {
        var bitmap = Bitmap(width: 3, height: 2, format: .rgba8)
        #expect(bitmap.bytesPerRow == 12 && bitmap.byteCount == 24)
        let offset = bitmap.bytesPerRow + 4 + 2  // pixel (1, 1), channel 2
        bitmap.withUnsafeMutableBytes { $0[offset] = 200 }
        #expect(bitmap[1, 1, 2] == 200)
        let total = bitmap.withUnsafeBytes { $0.reduce(0) { $0 + Int($1) } }
        #expect(total == 200)
    }
}
