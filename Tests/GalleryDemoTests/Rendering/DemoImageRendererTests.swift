import Foundation
import GalleryImaging
import Testing
@testable import GalleryDemo

/// Real derivations through our codecs, checked by decoding the result again.
@Suite("Deriving demo images")
struct DemoImageRendererTests {
    let fixture: DemoFixture
    let catalogue: DemoCatalogue
    let renderer: DemoImageRenderer

    init() throws {
        fixture = try DemoFixture()
        catalogue = DemoCatalogue(pageCount: 5, sourceCount: fixture.sources.files.count)
        renderer = DemoImageRenderer(sources: fixture.sources)
    }

    @Test(arguments: DemoImageFormat.allCases)
    func eachFormatDecodesAtItsListedSize(format: DemoImageFormat) throws {
        let photo = try #require(catalogue.allPhotos.first { $0.format == format })
        let bytes = try renderer.render(photo, size: .medium)
        let info = try ImageDecoder.probe(bytes, name: "demo \(photo.id)")
        let expected = photo.dimensions(of: .medium)
        #expect(info.width == expected.width && info.height == expected.height)
        #expect(info.format == (format == .png ? .png : .jpeg))
        #expect(info.isProgressive == (format == .progressiveJPEG))
        // Deterministic: rendering again gives the same bytes.
        #expect(try renderer.render(photo, size: .medium) == bytes)
    }

    /// The demo's PNGs are written at a fast zlib level: the zlib header's level field (FLEVEL, the top two
    /// bits of its second byte) says 1 ("fast": levels 2 to 5), where libpng's default writes 2.
    @Test func pngsAreCompressedAtAFastLevel() throws {
        let photo = try #require(catalogue.allPhotos.first { $0.format == .png })
        let bytes = try renderer.render(photo, size: .medium)
        // The first chunk after the 8-byte signature, the 25-byte IHDR and the 13-byte sRGB chunk.
        let idat = 8 + 25 + 13
        #expect(Array(bytes[idat + 4..<idat + 8]) == Array("IDAT".utf8))
        let flevel = bytes[idat + 9] >> 6
        #expect(flevel == 1, "zlib FLEVEL \(flevel)")
    }

    @Test func fullSizeMatchesTheCatalogue() throws {
        // The smallest JPEG keeps this quick in a debug build.
        let photo = try #require(catalogue.allPhotos.filter { $0.format != .png }.min { $0.megapixels < $1.megapixels })
        let bytes = try renderer.render(photo, size: .full)
        let decoded = try ImageDecoder.decode(bytes, name: "demo \(photo.id)")
        #expect(decoded.bitmap.width == photo.width && decoded.bitmap.height == photo.height)
        #expect(photo.megapixels >= 1)
    }

    @Test func neighbouringPhotosGiveDistinctImages() throws {
        let thumbnails = try (0..<24).map { try renderer.render(catalogue.photo(ordinal: $0), size: .thumbnail) }
        #expect(Set(thumbnails).count == 24)
    }
}
