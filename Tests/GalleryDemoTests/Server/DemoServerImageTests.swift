import Foundation
import Testing
@testable import GalleryDemo
import GalleryHTTPServer

/// Image serving checked with the real curl binary: validators, ranges, If-Range, 416, 304.
/// Uses the 100 px size so each test renders one small image.
@Suite("Demo server image responses")
struct DemoServerImageTests {
    let fixture: DemoFixture

    init() throws {
        fixture = try DemoFixture()
    }

    private func thumbnailURL(_ server: DemoServer, ordinal: Int = 0) -> (String, DemoPhoto) {
        let photo = server.catalogue.photo(ordinal: ordinal)
        return (server.baseURL + CatalogueDocuments.imagePath(photoID: photo.id, size: .thumbnail, format: photo.format), photo)
    }

    @Test func fullResponseCarriesStrongValidators() async throws {
        try await fixture.withServer { server in
            let (url, photo) = thumbnailURL(server)
            let response = try await DemoCurl.get(url)
            #expect(response.status == 200)
            #expect(response[header: "Content-Length"] == String(response.body.count))
            #expect(response[header: "Content-Type"] == photo.format.mediaType)
            #expect(response[header: "Accept-Ranges"] == "bytes")
            let tag = try #require(response[header: "ETag"])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "ETag must be strong: \(tag)")
            let modified = try #require(response[header: "Last-Modified"])
            #expect(HTTPDate.parse(modified) != nil)
            #expect(response.body.count > 500)

            // The same bytes and validators the second time (served from the cache file).
            let again = try await DemoCurl.get(url)
            #expect(again.body == response.body)
            #expect(again[header: "ETag"] == tag)
        }
    }

    @Test func headSendsHeadersOnly() async throws {
        try await fixture.withServer { server in
            let (url, _) = thumbnailURL(server, ordinal: 1)
            let full = try await DemoCurl.get(url)
            let head = try await DemoCurl.get(url, extra: ["-I"])
            #expect(head.status == 200)
            // curl -I writes the head to the output file too; no image bytes may follow it.
            #expect(head.text.hasPrefix("HTTP/1.1 200") && head.text.hasSuffix("\r\n\r\n"))
            #expect(head[header: "Content-Length"] == String(full.body.count))
            #expect(head[header: "ETag"] == full[header: "ETag"])
        }
    }

    @Test func rangesGive206WithContentRange() async throws {
        try await fixture.withServer { server in
            let (url, _) = thumbnailURL(server, ordinal: 2)
            let full = try await DemoCurl.get(url).body
            let length = full.count
            try #require(length > 100)
            let cases: [(String, ClosedRange<Int>)] = [
                ("10-19", 10...19), ("100-", 100...(length - 1)), ("-20", (length - 20)...(length - 1)),
                ("0-\(length + 50)", 0...(length - 1)),
            ]
            for (spec, range) in cases {
                let response = try await DemoCurl.get(url, extra: ["-r", spec])
                #expect(response.status == 206, "range \(spec)")
                #expect(response[header: "Content-Range"] == "bytes \(range.lowerBound)-\(range.upperBound)/\(length)")
                #expect(response[header: "Content-Length"] == String(range.count))
                #expect(response.body == Array(full[range]), "range \(spec)")
            }
        }
    }

    @Test func unsatisfiableRangeGives416() async throws {
        try await fixture.withServer { server in
            let (url, _) = thumbnailURL(server, ordinal: 3)
            let length = try await DemoCurl.get(url).body.count
            let response = try await DemoCurl.get(url, extra: ["-r", "\(length)-"])
            #expect(response.status == 416)
            #expect(response[header: "Content-Range"] == "bytes */\(length)")
            #expect(response.body.isEmpty)
        }
    }

    @Test func ifRangeMatchesOnlyTheCurrentStrongTagOrDate() async throws {
        try await fixture.withServer { server in
            let (url, _) = thumbnailURL(server, ordinal: 4)
            let full = try await DemoCurl.get(url)
            let tag = try #require(full[header: "ETag"])
            let date = try #require(full[header: "Last-Modified"])

            let matching = try await DemoCurl.get(url, ["If-Range": tag], extra: ["-r", "5-9"])
            #expect(matching.status == 206)
            #expect(matching.body == Array(full.body[5...9]))

            let byDate = try await DemoCurl.get(url, ["If-Range": date], extra: ["-r", "5-9"])
            #expect(byDate.status == 206)

            for stale in ["\"dv1-0-1-0-0\"", "W/\(tag)", "Mon, 01 Jan 2001 00:00:00 GMT"] {
                let response = try await DemoCurl.get(url, ["If-Range": stale], extra: ["-r", "5-9"])
                #expect(response.status == 200, "If-Range \(stale)")
                #expect(response.body == full.body)
                #expect(response[header: "Content-Range"] == nil)
            }
        }
    }

    @Test func ifNoneMatchGives304() async throws {
        try await fixture.withServer { server in
            let (url, _) = thumbnailURL(server, ordinal: 5)
            let full = try await DemoCurl.get(url)
            let tag = try #require(full[header: "ETag"])
            let response = try await DemoCurl.get(url, ["If-None-Match": tag])
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response[header: "ETag"] == tag)
            let other = try await DemoCurl.get(url, ["If-None-Match": "\"something-else\""])
            #expect(other.status == 200)
            let since = try await DemoCurl.get(url, ["If-Modified-Since": try #require(full[header: "Last-Modified"])])
            #expect(since.status == 304)
        }
    }

    @Test func unknownImagesAre404() async throws {
        try await fixture.withServer { server in
            let photo = server.catalogue.photo(ordinal: 0)
            let wrongExtension = photo.format == .png ? "jpg" : "png"
            for path in ["/images/\(photo.id)/1.\(wrongExtension)", "/images/\(photo.id)/3.jpg",
                         "/images/12/1.jpg", "/images/\(photo.id)/1"] {
                let response = try await DemoCurl.get(server.baseURL + path)
                #expect(response.status == 404, "\(path)")
            }
        }
    }
}
