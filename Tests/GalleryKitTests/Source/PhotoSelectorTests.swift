import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct PhotoSelectorTests {
    func photo(_ id: Int, nsfw: Bool = false, images: [(Int, String)] = [], imageURL: String? = nil) -> Photo {
        Photo(id: id, name: "p\(id)", nsfw: nsfw, imageURL: imageURL ?? (images.isEmpty ? "http://127.0.0.1/\(id).jpg" : nil),
              images: images.map { PhotoImage(size: $0.0, url: $0.1) })
    }

    @Test func deduplicatesAcrossPagesFirstSeenWins() {
        var selector = PhotoSelector(pageLimit: 5)
        let first = selector.add(PhotoPage(totalPages: 5, photos: [photo(1), photo(2), photo(1)]), number: 1)
        #expect(first.selected.map(\.photo.id) == [1, 2])
        #expect(first.rejected == [RejectedPhoto(id: 1, reason: .duplicate)])
        var renamed = photo(2)
        renamed.name = "second copy"
        let second = selector.add(PhotoPage(totalPages: 5, photos: [renamed, photo(3)]), number: 2)
        #expect(second.selected.map(\.photo.id) == [3])
        #expect(selector.selected.map(\.photo.id) == [1, 2, 3])
        #expect(selector.selected[1].photo.name == "p2")
        #expect(selector.selected.map(\.page) == [1, 1, 2])
    }

    @Test func leavesOutNSFWUnlessAsked() {
        let page = PhotoPage(photos: [photo(1), photo(2, nsfw: true)])
        var strict = PhotoSelector(pageLimit: 1)
        #expect(strict.add(page, number: 1).rejected == [RejectedPhoto(id: 2, reason: .nsfw)])
        var open = PhotoSelector(pageLimit: 1, includeNSFW: true)
        #expect(open.add(page, number: 1).selected.map(\.photo.id) == [1, 2])
    }

    @Test func nsfwRejectionDoesNotBlockALaterCleanCopy() {
        var selector = PhotoSelector(pageLimit: 2)
        selector.add(PhotoPage(photos: [photo(1, nsfw: true)]), number: 1)
        #expect(selector.add(PhotoPage(photos: [photo(1)]), number: 2).selected.map(\.photo.id) == [1])
    }

    @Test func choosesTheLargestByRankNotByNumber() {
        // Code 5 (1170 px) beats code 440 (440 px square) and code 21 (600 px high); 2048 beats all.
        let a = photo(1, images: [(440, "http://127.0.0.1/440.jpg"), (5, "http://127.0.0.1/5.jpg"), (21, "http://127.0.0.1/21.jpg")])
        let selector = PhotoSelector(pageLimit: 1)
        #expect(selector.chooseImage(for: a)?.size == 5)
        let b = photo(2, images: [(4, "http://127.0.0.1/4.jpg"), (2048, "http://127.0.0.1/2048.jpg"), (1600, "http://127.0.0.1/1600.jpg")])
        #expect(selector.chooseImage(for: b)?.url.absoluteString == "http://127.0.0.1/2048.jpg")
        // An unknown number is a pixel size: 3000 beats 2048.
        let c = photo(3, images: [(2048, "http://127.0.0.1/2048.jpg"), (3000, "http://127.0.0.1/3000.jpg")])
        #expect(selector.chooseImage(for: c)?.size == 3000)
    }

    @Test func requestedSizeWinsWhenOfferedElseLargest() {
        let p = photo(1, images: [(4, "http://127.0.0.1/4.jpg"), (2048, "http://127.0.0.1/2048.jpg")])
        #expect(PhotoSelector(pageLimit: 1, imageSize: 4).chooseImage(for: p)?.size == 4)
        #expect(PhotoSelector(pageLimit: 1, imageSize: 6).chooseImage(for: p)?.size == 2048)
    }

    @Test func skipsNonWebImageURLs() {
        let p = photo(1, images: [(2048, "javascript:alert(1)"), (4, "file:///etc/passwd"), (3, "http://127.0.0.1/3.jpg")])
        #expect(PhotoSelector(pageLimit: 1).chooseImage(for: p)?.size == 3)
        let unsized = photo(2, imageURL: "http://127.0.0.1/u.jpg")
        #expect(PhotoSelector(pageLimit: 1).chooseImage(for: unsized).map { ($0.url.absoluteString, $0.size) }! == ("http://127.0.0.1/u.jpg", nil))
        var selector = PhotoSelector(pageLimit: 1)
        let result = selector.add(PhotoPage(photos: [photo(3, imageURL: "data:image/png;base64,AAAA")]), number: 1)
        #expect(result.rejected == [RejectedPhoto(id: 3, reason: .noUsableImage)])
    }

    @Test func stopsAtTotalPagesOrLimitOrEmptyPage() {
        var selector = PhotoSelector(pageLimit: 5)
        #expect(selector.nextPage == 1)
        selector.add(PhotoPage(totalPages: 2, photos: [photo(1)]), number: 1)
        #expect(selector.nextPage == 2)
        selector.add(PhotoPage(totalPages: 2, photos: [photo(2)]), number: 2)
        #expect(selector.nextPage == nil)

        var limited = PhotoSelector(pageLimit: 1)
        limited.add(PhotoPage(totalPages: 10, photos: [photo(1)]), number: 1)
        #expect(limited.nextPage == nil)

        var unknownTotal = PhotoSelector(pageLimit: 5)
        unknownTotal.add(PhotoPage(photos: [photo(1)]), number: 1)
        #expect(unknownTotal.nextPage == 2)
        unknownTotal.add(PhotoPage(photos: []), number: 2)
        #expect(unknownTotal.nextPage == nil)
    }

    @Test func aPageOfOnlyBadItemsIsNotTheEnd() {
        var selector = PhotoSelector(pageLimit: 3)
        selector.add(PhotoPage(photos: [], skipped: [SkippedItem(index: 0, reason: "bad")]), number: 1)
        #expect(selector.nextPage == 2)
    }

    @Test func rankingTable() {
        #expect(ImageSizeRank.longestEdge(of: 4) == 900)
        #expect(ImageSizeRank.longestEdge(of: 2048) == 2048)
        #expect(ImageSizeRank.longestEdge(of: 5000) == 5000)
        // Code 6 and pixel size 1080 are both 1080 px: the higher number wins the tie.
        #expect(ImageSizeRank.isSmaller(6, than: 1080))
        #expect(!ImageSizeRank.isSmaller(1080, than: 6))
    }
}
