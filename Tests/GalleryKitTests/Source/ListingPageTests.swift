import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// `ListingPage`, the tolerant page shape behind `PhotoPage` and `CommentPage`, with an item type of
/// its own: the list key comes from the item, and every page gets the same tolerance.
@Suite struct ListingPageTests {
    struct Tag: ListingItem {
        static var listKey: String { "tags" }
        var name: String
    }

    let url = URL(string: "http://127.0.0.1:8080/tags?page=2")!

    @Test func itemsAreReadUnderTheItemsKeyAndBadOnesSkipped() throws {
        let page = try ListingPage<Tag>.decode(Data("""
        {"current_page":"two","total_pages":4,"total_items":null,"tags":[{"name":"sea"},{"name":7},{},{"name":"sky"}]}
        """.utf8), from: url)
        #expect(page.items.map(\.name) == ["sea", "sky"])
        #expect(page.skipped.map(\.index) == [1, 2])
        #expect(page.skipped.allSatisfy { $0.reason.contains("name") }, "\(page.skipped)")
        // The counts are lenient: wrong-typed and null give nil, never a lost page.
        #expect(page.currentPage == nil && page.totalPages == 4 && page.totalItems == nil)
    }

    @Test func aMissingOrWrongListNamesTheItemsKey() throws {
        #expect(throws: SourceError.missingList(page: url, key: "tags")) {
            try ListingPage<Tag>.decode(Data(#"{"photos":[]}"#.utf8), from: url)
        }
        #expect(throws: SourceError.missingList(page: url, key: "tags")) {
            try ListingPage<Tag>.decode(Data(#"{"tags":null}"#.utf8), from: url)
        }
        #expect(throws: SourceError.self) { try ListingPage<Tag>.decode(Data(#"{"tags":{}}"#.utf8), from: url) }
    }

    @Test func encodesUnderTheItemsKeyWithoutTheSkippedItems() throws {
        let page = ListingPage(currentPage: 2, items: [Tag(name: "sea")], skipped: [SkippedItem(index: 1, reason: "bad")])
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(page)) as? [String: Any])
        #expect(Set(object.keys) == ["current_page", "tags"])
        let again = try ListingPage<Tag>.decode(JSONEncoder().encode(page), from: url)
        #expect(again.items == page.items && again.currentPage == 2 && again.skipped.isEmpty)
    }

    @Test func photoAndCommentPagesAreListingsUnderTheirOwnKeys() {
        var photos = PhotoPage(photos: [])
        photos.photos = [Photo(id: 1, name: "n", imageURL: "http://127.0.0.1/1.jpg")]
        #expect(photos.items.map(\.id) == [1])
        #expect(Photo.listKey == "photos" && Comment.listKey == "comments")
        let comments = CommentPage(totalItems: 1, comments: [Comment(id: 3, body: "hi")])
        #expect(comments.items == comments.comments && comments.totalItems == 1)
    }
}
