import Foundation
import Testing
@testable import GalleryDemo

@Suite("Demo catalogue model")
struct DemoCatalogueTests {
    let catalogue = DemoCatalogue(pageCount: 20, sourceCount: 7)
    let documents = CatalogueDocuments(catalogue: DemoCatalogue(pageCount: 20, sourceCount: 7),
                                       baseURL: "http://127.0.0.1:8080")

    @Test func sameJSONEveryTime() throws {
        for page in [1, 2, 5, 20] {
            let first = try CatalogueJSON.encode(documents.list(page: page, pageSize: 50, feature: "popular",
                                                                sizes: DemoImageSize.allCases))
            // A fresh catalogue value: nothing may depend on state built up by the first.
            let again = CatalogueDocuments(catalogue: DemoCatalogue(pageCount: 20, sourceCount: 7),
                                           baseURL: "http://127.0.0.1:8080")
            let second = try CatalogueJSON.encode(again.list(page: page, pageSize: 50, feature: "popular",
                                                             sizes: DemoImageSize.allCases))
            #expect(first == second)
            #expect(first.count > 10_000)
        }
    }

    @Test func firstFivePagesHold250DistinctPhotos() {
        let photos = (1...5).flatMap { catalogue.page($0).photos }
        let ids = Set(photos.map(\.id))
        #expect(ids.count == 250)
        // Distinct derived images: no two photos share recipe and output size.
        let looks = Set(photos.map { "\($0.recipe)-\($0.width)x\($0.height)-\($0.format)" })
        #expect(looks.count == 250)
        let dimensions = Set(photos.map { "\($0.width)x\($0.height)" })
        #expect(dimensions.count > 200)
    }

    @Test func somePagesRepeatPhotosOfThePreviousPage() {
        var repeated = 0
        for number in 2...20 {
            let previous = Set(catalogue.page(number - 1).photos.map(\.id))
            let page = catalogue.page(number)
            let repeats = page.photos.filter { previous.contains($0.id) }
            #expect(page.photos.count == 50 + repeats.count)
            #expect(repeats.count <= 2)
            repeated += repeats.count
        }
        #expect(repeated >= 3)
        // And within the default 5-page job, too.
        let firstFive = (1...5).flatMap { catalogue.page($0).photos }
        #expect(firstFive.count > 250)
    }

    @Test func sizesAreRealisticPhotos() {
        for photo in catalogue.allPhotos {
            #expect(photo.megapixels >= 1 && photo.megapixels <= 12, "photo \(photo.id) is \(photo.width)x\(photo.height)")
            if photo.format == .png { #expect(photo.megapixels <= 4) }
            let medium = photo.dimensions(of: .medium)
            #expect(max(medium.width, medium.height) == 900)
            #expect(max(photo.dimensions(of: .thumbnail).width, photo.dimensions(of: .thumbnail).height) == 100)
        }
        let big = catalogue.allPhotos.filter { $0.megapixels > 8 }.count
        let small = catalogue.allPhotos.filter { $0.megapixels < 3 }.count
        #expect(big > 50 && small > 150)
    }

    @Test func formatsAreMixed() {
        let photos = (1...5).flatMap { catalogue.page($0).photos }
        var counts: [DemoImageFormat: Int] = [:]
        for photo in photos { counts[photo.format, default: 0] += 1 }
        #expect(counts[.baselineJPEG, default: 0] > 100)
        #expect(counts[.progressiveJPEG, default: 0] > 40)
        #expect(counts[.png, default: 0] > 10)
    }

    @Test func metadataVariesButRepeats() {
        let photos = catalogue.allPhotos
        #expect(Set(photos.map(\.name)).count > 300)
        let users = Set(photos.map(\.username))
        #expect(users.count > 50 && users.count <= 150)
        let nsfw = photos.filter(\.nsfw).count
        #expect(nsfw > 5 && nsfw < 60)
        #expect(photos[0].rating > photos[500].rating && photos[500].rating > photos[999].rating)
        #expect(Set(photos.map(\.recipe.sourceIndex)) == Set(0..<7))
    }

    @Test func idsMapBack() {
        for photo in catalogue.allPhotos.prefix(300) {
            #expect(catalogue.photo(id: photo.id) == photo)
        }
        let last = catalogue.photo(ordinal: catalogue.totalItems - 1)
        #expect(catalogue.photo(id: last.id + 1) == nil)
        #expect(catalogue.photo(id: DemoCatalogue.firstID - 13) == nil)
        #expect(catalogue.photo(id: 0) == nil)
        #expect(catalogue.photo(id: DemoCatalogue.firstID + 1) == nil)
    }

    @Test func pagingEdges() {
        #expect(catalogue.page(21).photos.isEmpty)
        #expect(catalogue.page(0).photos.isEmpty)
        #expect(catalogue.page(1).totalPages == 20)
        #expect(catalogue.page(1, size: 100).totalPages == 10)
        #expect(catalogue.page(1, size: 500).photos.count == 100)
        #expect(DemoCatalogue(pageCount: 5, sourceCount: 1).page(1).totalItems == 250)
    }

    @Test func commentsArePagedAndStable() {
        let photo = catalogue.photo(ordinal: 3)
        let count = catalogue.commentCount(of: photo)
        let (first, totalPages) = catalogue.comments(of: photo, page: 1)
        #expect(totalPages == max(1, (count + 19) / 20))
        #expect(first.count == min(20, count))
        let all = (1...totalPages).flatMap { catalogue.comments(of: photo, page: $0).comments }
        #expect(all.count == count)
        #expect(Set(all.map(\.id)).count == count)
        #expect(catalogue.comments(of: photo, page: totalPages + 1).comments.isEmpty)
        #expect(catalogue.comments(of: photo, page: 1).comments == first)
    }

    @Test func photoDocumentHasAbsoluteImageURLs() throws {
        let photo = catalogue.photo(ordinal: 0)
        let document = documents.photo(photo, sizes: DemoImageSize.allCases)
        #expect(document.images.map(\.size) == [1, 4, 2048])
        #expect(document.imageURL == "http://127.0.0.1:8080/images/\(photo.id)/2048.\(photo.format.fileExtension)")
        #expect(document.images.last?.width == photo.width)
        let json = try #require(String(data: CatalogueJSON.encode(CatalogueJSON.SinglePhoto(photo: document)), encoding: .utf8))
        #expect(json.contains("\"image_url\":\"http://127.0.0.1:8080/images/"))
        #expect(json.contains("\"user\":{\"username\":"))
    }
}
