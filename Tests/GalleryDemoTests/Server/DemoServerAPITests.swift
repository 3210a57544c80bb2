import Foundation
import Testing
@testable import GalleryDemo

/// The JSON endpoints, fetched with curl from a running server.
@Suite("Demo server JSON API")
struct DemoServerAPITests {
    let fixture: DemoFixture

    init() throws {
        fixture = try DemoFixture()
    }

    @Test func popularPagesListAbsoluteImageURLs() async throws {
        try await fixture.withServer { server in
            let response = try await DemoCurl.get(server.baseURL + "/photos?feature=popular&page=1&rpp=50&consumer_key=abc")
            #expect(response.status == 200)
            #expect(response[header: "Content-Type"]?.hasPrefix("application/json") == true)
            let json = try response.json()
            #expect(json["current_page"] as? Int == 1)
            #expect(json["total_pages"] as? Int == 5)
            #expect(json["total_items"] as? Int == 250)
            let photos = try #require(json["photos"] as? [[String: Any]])
            #expect(photos.count == 50)
            let first = try #require(photos.first)
            for key in ["id", "name", "description", "nsfw", "rating", "user", "width", "height", "image_url", "images"] {
                #expect(first[key] != nil, "missing \(key)")
            }
            let images = try #require(first["images"] as? [[String: Any]])
            #expect(images.compactMap { $0["size"] as? Int } == [1, 4, 2048])
            let imageURL = try #require(first["image_url"] as? String)
            #expect(imageURL.hasPrefix(server.baseURL + "/images/"))
            #expect(imageURL.hasSuffix("/2048.jpg") || imageURL.hasSuffix("/2048.png"))

            // Same document again, and past the end an empty page.
            #expect(try await DemoCurl.get(server.baseURL + "/photos?feature=popular&page=1&rpp=50").body == response.body)
            let beyond = try await DemoCurl.get(server.baseURL + "/photos?feature=popular&page=6&rpp=50").json()
            #expect((beyond["photos"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func singlePhotoAtOneSize() async throws {
        try await fixture.withServer { server in
            let photo = server.catalogue.photo(ordinal: 7)
            let json = try await DemoCurl.get(server.baseURL + "/photos/\(photo.id)?image_size=4").json()
            let document = try #require(json["photo"] as? [String: Any])
            #expect(document["id"] as? Int == photo.id)
            #expect(document["name"] as? String == photo.name)
            let images = try #require(document["images"] as? [[String: Any]])
            #expect(images.count == 1)
            #expect(images.first?["size"] as? Int == 4)
            #expect(try await DemoCurl.get(server.baseURL + "/photos/42").status == 404)
        }
    }

    @Test func commentsPage() async throws {
        try await fixture.withServer { server in
            let photo = server.catalogue.allPhotos.first { server.catalogue.commentCount(of: $0) > 20 }!
            let json = try await DemoCurl.get(server.baseURL + "/photos/\(photo.id)/comments?page=2").json()
            #expect(json["current_page"] as? Int == 2)
            #expect(json["total_pages"] as? Int == 2 || json["total_pages"] as? Int == 3)
            let comments = try #require(json["comments"] as? [[String: Any]])
            #expect(!comments.isEmpty)
            #expect((comments.first?["user"] as? [String: Any])?["username"] is String)
        }
    }

    @Test func explicitPortAndStop() async throws {
        // Take a free port from a first server, stop it, and ask for that port explicitly. Tests run
        // in parallel, so another server may grab the port in between: try a few ports, each for up to
        // 2 s (under AddressSanitizer, asking once at once failed on 5 ports in a row).
        var started: DemoServer?
        var port = 0
        var failures: [String] = []
        for _ in 0..<5 where started == nil {
            port = try await fixture.withServer { $0.port }
            var configuration = fixture.configuration()
            configuration.port = port
            for _ in 0..<10 where started == nil {
                do { started = try await DemoServer.start(configuration) } catch {
                    failures.append("\(port): \(error)")
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
        }
        let server = try #require(started, "\(failures.suffix(5))")
        #expect(server.port == port)
        #expect(server.baseURL == "http://127.0.0.1:\(port)")
        #expect(try await DemoCurl.get(server.baseURL + "/photos").status == 200)
        await server.stop()
        let after = try await DemoCurl.run(["--max-time", "5", server.baseURL + "/photos"], allowNoResponse: true)
        #expect(after.status == 0, "still answering after stop()")
    }

    @Test func portInUseIsATypedError() async throws {
        try await fixture.withServer { server in
            var configuration = fixture.configuration()
            configuration.port = server.port
            await #expect(throws: DemoError.self) { try await DemoServer.start(configuration) }
        }
    }
}
