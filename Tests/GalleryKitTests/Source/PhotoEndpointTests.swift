import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct PhotoEndpointTests {
    let base = URL(string: "http://127.0.0.1:8080")!

    @Test func popularPageWithoutKey() {
        let endpoint = PhotoEndpoint.popular(page: 3)
        #expect(endpoint.method == "GET")
        #expect(endpoint.path == "/photos")
        #expect(endpoint.url(relativeTo: base).absoluteString == "http://127.0.0.1:8080/photos?feature=popular&page=3&rpp=50")
    }

    @Test func popularPageWithKeyEncodesItStrictly() {
        let url = PhotoEndpoint.popular(page: 1, perPage: 20, consumerKey: "a+b&c=d e").url(relativeTo: base)
        #expect(url.absoluteString == "http://127.0.0.1:8080/photos?feature=popular&page=1&rpp=20&consumer_key=a%2Bb%26c%3Dd%20e")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(items?.last == URLQueryItem(name: "consumer_key", value: "a+b&c=d e"))
    }

    @Test func photoAtSize() {
        let endpoint = PhotoEndpoint.photo(id: 12345, imageSize: 2048)
        #expect(endpoint.path == "/photos/12345")
        #expect(endpoint.queryItems == [URLQueryItem(name: "image_size", value: "2048")])
        #expect(endpoint.url(relativeTo: base).absoluteString == "http://127.0.0.1:8080/photos/12345?image_size=2048")
    }

    @Test func commentsPage() {
        let url = PhotoEndpoint.comments(photoID: 7, page: 2).url(relativeTo: base)
        #expect(url.absoluteString == "http://127.0.0.1:8080/photos/7/comments?page=2")
    }

    @Test(arguments: ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/"])
    func basePathPrefixIsKept(base: String) {
        let url = PhotoEndpoint.popular(page: 1).url(relativeTo: URL(string: base)!)
        #expect(url.absoluteString == "http://127.0.0.1:8080/v1/photos?feature=popular&page=1&rpp=50")
    }

    @Test func baseQueryIsReplacedNotMerged() {
        let url = PhotoEndpoint.comments(photoID: 1, page: 1).url(relativeTo: URL(string: "http://127.0.0.1:1/?x=1")!)
        #expect(url.query == "page=1")
    }
}
