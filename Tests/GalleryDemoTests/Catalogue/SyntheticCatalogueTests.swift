import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing
@testable import GalleryDemo

/// `serve-demo --synthetic N`: a catalogue of any size whose images are ~50 kB JPEGs drawn from a
/// fixed set of variants, each photo's bytes its own.
@Suite("Synthetic catalogue")
struct SyntheticCatalogueTests {
    @Test func holdsExactlyNPhotosOnPagesOf50() {
        let catalogue = DemoCatalogue(syntheticPhotos: 100_000, sourceCount: 11)
        #expect(catalogue.totalItems == 100_000 && catalogue.pageCount == 2_000 && catalogue.isSynthetic)
        let last = catalogue.page(2_000)
        #expect(last.totalPages == 2_000 && last.totalItems == 100_000)
        #expect(last.photos.last?.ordinal == 99_999)
        #expect(catalogue.page(2_001).photos.isEmpty)
        // An odd count: the last page is short.
        let odd = DemoCatalogue(syntheticPhotos: 1_234, sourceCount: 11)
        #expect(odd.pageCount == 25 && odd.page(25).photos.filter { $0.ordinal >= 1_200 }.count == 34)
        // Ids map back to their photo, the same on every call.
        let photo = catalogue.photo(ordinal: 98_765)
        #expect(catalogue.photo(id: photo.id) == photo)
        #expect(catalogue.photo(id: photo.id + 1) == nil)
    }

    @Test func photosAreSmallJPEGsDrawnFromTheVariants() throws {
        let catalogue = DemoCatalogue(syntheticPhotos: 5_000, sourceCount: 11)
        var variants: Set<Int> = []
        for ordinal in stride(from: 0, to: 5_000, by: 7) {
            let photo = catalogue.photo(ordinal: ordinal)
            let variant = try #require(catalogue.variantPhoto(of: photo))
            variants.insert(try #require(photo.variant))
            #expect(photo.format != .png)
            #expect((photo.width, photo.height) == (variant.width, variant.height))
            #expect(photo.recipe == variant.recipe)
            #expect(photo.megapixels >= 0.24 && photo.megapixels <= 0.46, "\(photo.width)x\(photo.height)")
            #expect(variant.id >= DemoCatalogue.variantBaseID && catalogue.photo(id: variant.id) == nil)
        }
        // Photos spread over many variants (714 photos drawn from 997).
        #expect(variants.count > 400)
        // The standard catalogue has none.
        #expect(DemoCatalogue(pageCount: 2, sourceCount: 11).variantPhoto(of: DemoCatalogue(pageCount: 2, sourceCount: 11).photo(ordinal: 0)) == nil)
    }

    @Test func eachPhotoHasItsOwnBytesDecodingToItsVariantsPixels() throws {
        let folder = try TempDirectory(prefix: "synthetic")
        let sources = try DemoTestSources.make(in: folder.url)
        let catalogue = DemoCatalogue(syntheticPhotos: 3_000, sourceCount: sources.files.count)
        let photos = (0..<3_000).lazy.map(catalogue.photo(ordinal:))
        // Two photos on the same variant.
        let first = try #require(photos.first)
        let second = try #require(photos.dropFirst().first { $0.variant == first.variant })
        let variant = try #require(catalogue.variantPhoto(of: first))
        let jpeg = try DemoImageRenderer(sources: sources).render(variant, size: .full)
        let a = try SyntheticImage.bytes(of: first.id, jpeg: jpeg)
        let b = try SyntheticImage.bytes(of: second.id, jpeg: jpeg)
        #expect(a != b && a.count == jpeg.count + 4 + SyntheticImage.comment(for: first.id).count)
        #expect(Array(a[0..<4]) == [0xFF, 0xD8, 0xFF, 0xFE])
        let decodedA = try ImageDecoder.decode(a, name: "photo")
        let decodedB = try ImageDecoder.decode(jpeg, name: "variant")
        #expect(decodedA.bitmap.width == variant.width && decodedA.bitmap.height == variant.height)
        #expect(decodedA.bitmap == decodedB.bitmap)
        // Not a JPEG: refused, naming the photo.
        #expect(throws: DemoError.self) { try SyntheticImage.bytes(of: 7, jpeg: [0x89, 0x50, 0x4E, 0x47, 0, 0]) }
    }

    @Test func serverListsAndServesSyntheticPhotosWithRanges() async throws {
        let fixture = try DemoFixture()
        var configuration = fixture.configuration()
        configuration.syntheticPhotos = 100_000
        let server = try await DemoServer.start(configuration)
        #expect(server.notice.contains("synthetic catalogue of 100000 photos"))
        let page = try await DemoCurl.get(server.baseURL + "/photos?feature=popular&page=2000&rpp=50").json()
        #expect(page["total_items"] as? Int == 100_000 && page["total_pages"] as? Int == 2_000)
        let photos = try #require(page["photos"] as? [[String: Any]])
        let url = try #require(photos.last?["image_url"] as? String)
        let id = try #require(photos.last?["id"] as? Int)
        let full = try await DemoCurl.get(url)
        #expect(full.status == 200 && full[header: "Content-Type"] == "image/jpeg")
        #expect(full.body.count > 5_000 && full.body.count < 250_000)
        #expect(Data(full.body).range(of: Data("fetch-gallery synthetic photo \(id)".utf8)) != nil)
        let part = try await DemoCurl.get(url, ["Range": "bytes=100-199"])
        #expect(part.status == 206 && part.body == Array(full.body[100..<200]))
        let etag = try #require(full[header: "ETag"])
        #expect(try await DemoCurl.get(url, ["If-None-Match": etag]).status == 304)
        await server.stop()
    }
}
