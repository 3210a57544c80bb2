import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct PhotoDecodingTests {
    @Test func fullPhotoDecodes() throws {
        let page = try PhotoPage.decode(jsonData("""
        {"current_page":1,"total_pages":9,"total_items":420,"photos":[
          {"id":12345,"name":"Sunset over the bay","description":"Golden hour","nsfw":false,"rating":97.4,
           "user":{"username":"ann","fullname":"Ann Example"},"width":4000,"height":3000,
           "image_url":"http://127.0.0.1/i/12345.jpg",
           "images":[{"size":4,"url":"http://127.0.0.1/i/4.jpg"},{"size":"2048","url":"http://127.0.0.1/i/2048.jpg","https_url":"https://127.0.0.1/i/2048.jpg"}]}
        ]}
        """), from: pageURL)
        #expect(page.currentPage == 1 && page.totalPages == 9 && page.totalItems == 420)
        #expect(page.skipped.isEmpty)
        let photo = try #require(page.photos.first)
        #expect(photo.id == 12345 && photo.name == "Sunset over the bay" && photo.description == "Golden hour")
        #expect(photo.rating == 97.4 && photo.user?.username == "ann" && photo.width == 4000 && photo.height == 3000)
        #expect(photo.images == [PhotoImage(size: 4, url: "http://127.0.0.1/i/4.jpg"), PhotoImage(size: 2048, url: "http://127.0.0.1/i/2048.jpg")])
    }

    @Test func wrongTypedAndMissingRequiredFieldsSkipOnlyThoseItems() throws {
        let page = try PhotoPage.decode(jsonData("""
        {"current_page":1,"total_pages":1,"photos":[
          {"id":1,"name":"good one","image_url":"http://127.0.0.1/1.jpg"},
          {"id":"two","name":"id is a string","image_url":"http://127.0.0.1/2.jpg"},
          {"name":"no id","image_url":"http://127.0.0.1/3.jpg"},
          {"id":4,"name":44,"image_url":"http://127.0.0.1/4.jpg"},
          {"id":5,"name":"no image at all"},
          "not an object",
          null,
          {"id":8,"name":"good two","images":[{"size":"huge","url":"x"},{"size":6,"url":"http://127.0.0.1/8.jpg"}]}
        ]}
        """), from: pageURL)
        #expect(page.photos.map(\.id) == [1, 8])
        #expect(page.photos[1].images == [PhotoImage(size: 6, url: "http://127.0.0.1/8.jpg")])
        #expect(page.skipped.map(\.index) == [1, 2, 3, 4, 5, 6])
        #expect(page.skipped[0].reason.contains("id"))
        #expect(page.skipped[1].reason.contains("missing field 'photos.[2].id'") || page.skipped[1].reason.contains("'id'"))
        #expect(page.skipped[2].reason.contains("name"))
        #expect(page.skipped[3].reason.contains("image_url"))
    }

    @Test func optionalFieldsAreReallyOptional() throws {
        let page = try PhotoPage.decode(jsonData("""
        {"photos":[{"id":1,"name":"x","image_url":"http://127.0.0.1/1.jpg","rating":"high","width":null,
          "user":{"fullname":"no username"},"description":7}]}
        """), from: pageURL)
        let photo = try #require(page.photos.first)
        #expect(photo.rating == nil && photo.width == nil && photo.user == nil && photo.description == nil)
        #expect(photo.nsfw == false)
        #expect(page.currentPage == nil && page.totalPages == nil)
    }

    @Test(arguments: [
        ("true", true), ("false", false), ("1", true), ("0", false), ("null", false),
        ("\"true\"", true), ("\"false\"", false), ("\"maybe\"", true), ("{}", true), ("[]", true),
    ])
    func nsfwFailsClosed(value: String, expected: Bool) throws {
        let page = try PhotoPage.decode(jsonData("""
        {"photos":[{"id":1,"name":"x","image_url":"http://127.0.0.1/1.jpg","nsfw":\(value)}]}
        """), from: pageURL)
        #expect(page.photos.first?.nsfw == expected)
    }

    @Test func httpsURLStandsInOnlyWhenURLIsMissing() throws {
        let page = try PhotoPage.decode(jsonData("""
        {"photos":[{"id":1,"name":"x","images":[{"size":4,"https_url":"https://127.0.0.1/4.jpg"},{"size":5}]}]}
        """), from: pageURL)
        #expect(page.photos.first?.images == [PhotoImage(size: 4, url: "https://127.0.0.1/4.jpg")])
    }

    @Test func imageURLArrayTakesTheFirst() throws {
        let page = try PhotoPage.decode(jsonData("""
        {"photos":[{"id":1,"name":"x","image_url":["http://127.0.0.1/a.jpg","http://127.0.0.1/b.jpg"]}]}
        """), from: pageURL)
        #expect(page.photos.first?.imageURL == "http://127.0.0.1/a.jpg")
    }

    @Test func untrustedStringsAreKeptAsSent() throws {
        for hostile in Hostile.strings {
            let encoded = String(decoding: try JSONEncoder().encode(hostile), as: UTF8.self)
            let page = try PhotoPage.decode(jsonData("""
            {"photos":[{"id":1,"name":\(encoded),"description":\(encoded),"image_url":"http://127.0.0.1/1.jpg"}]}
            """), from: pageURL)
            #expect(page.photos.first?.name == hostile)
            #expect(page.photos.first?.description == hostile)
        }
    }

    @Test func notJSONNamesThePage() {
        #expect(throws: SourceError.self) { try PhotoPage.decode(jsonData("<html>502 Bad Gateway</html>"), from: pageURL) }
        do {
            _ = try PhotoPage.decode(jsonData("{\"photos\": [1, 2"), from: pageURL)
            Issue.record("expected a throw")
        } catch {
            guard case let .notJSON(page, _) = error else { Issue.record("wrong case \(error)"); return }
            #expect(page == pageURL)
            #expect(error.description.contains(pageURL.absoluteString))
        }
    }

    @Test(arguments: ["[]", "42", "\"photos\""])
    func topLevelNotAnObjectIsNotJSON(body: String) {
        #expect {
            try PhotoPage.decode(jsonData(body), from: pageURL)
        } throws: { error in
            if case .notJSON(pageURL, _)? = error as? SourceError { return true }
            return false
        }
    }

    @Test(arguments: ["{}", "{\"photos\":null}", "{\"current_page\":1,\"total_pages\":3}"])
    func missingPhotosThrows(body: String) {
        #expect(throws: SourceError.missingList(page: pageURL, key: "photos")) {
            try PhotoPage.decode(jsonData(body), from: pageURL)
        }
    }

    @Test func photosNotAnArrayIsMalformed() {
        #expect {
            try PhotoPage.decode(jsonData("{\"photos\":{\"id\":1}}"), from: pageURL)
        } throws: { error in
            if case .malformedPage(pageURL, _)? = error as? SourceError { return true }
            return false
        }
    }

    @Test func commentPageIsTolerantToo() throws {
        let url = URL(string: "http://127.0.0.1:8080/photos/1/comments?page=1")!
        let page = try CommentPage.decode(jsonData("""
        {"current_page":1,"total_pages":1,"total_items":3,"comments":[
          {"id":1,"body":"Lovely <b>light</b>","user":{"username":"bob"},"created_at":"2024-05-01T10:00:00-04:00"},
          {"id":2,"body":null},
          {"id":3,"body":"no user"}
        ]}
        """), from: url)
        #expect(page.comments.map(\.id) == [1, 3])
        #expect(page.comments[0].body == "Lovely <b>light</b>" && page.comments[0].user?.username == "bob")
        #expect(page.skipped.map(\.index) == [1])
        #expect(throws: SourceError.missingList(page: url, key: "comments")) { try CommentPage.decode(jsonData("{}"), from: url) }
    }

    @Test func modelsRoundTrip() throws {
        let photo = Photo(id: 9, name: "n", description: "d", nsfw: true, rating: 1.5, user: PhotoUser(username: "u"),
                          width: 10, height: 20, imageURL: "http://127.0.0.1/9.jpg", images: [PhotoImage(size: 4, url: "http://127.0.0.1/4.jpg")])
        let page = PhotoPage(currentPage: 2, totalPages: 3, totalItems: 100, photos: [photo])
        let decoded = try PhotoPage.decode(try JSONEncoder().encode(page), from: pageURL)
        #expect(decoded == page)
    }
}
