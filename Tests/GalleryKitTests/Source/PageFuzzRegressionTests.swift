import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// Page bodies kept from the `page-json` fuzz target (Fuzz/page-json.swift): each decodes to a page
/// or a SourceError, keeps every array item as a photo/comment or a skipped entry, and survives an
/// encode/decode round trip.
@Suite("Page decoding: fuzz regressions")
struct PageFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }
    let url = URL(string: "http://127.0.0.1/v1/photos?page=1")!

    @Test func regressionFilesExist() {
        #expect(Self.files.count >= 3)
    }

    @Test(arguments: files)
    func decodesConsistently(_ file: String) throws {
        let body = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        let result = Result { () throws(SourceError) in try PhotoPage.decode(body, from: url) }
        switch result {
        case .success(let page):
            if let items = object?["photos"] as? [Any] { #expect(page.photos.count + page.skipped.count == items.count) }
            #expect(page.photos.allSatisfy { $0.imageURL != nil || !$0.images.isEmpty })
            let again = try PhotoPage.decode(JSONEncoder().encode(page), from: url)
            #expect(again.photos == page.photos)
        case .failure(let error):
            #expect(error.description.contains(url.absoluteString))
        }
        if let page = try? CommentPage.decode(body, from: url) {
            if let items = object?["comments"] as? [Any] { #expect(page.comments.count + page.skipped.count == items.count) }
            let again = try CommentPage.decode(JSONEncoder().encode(page), from: url)
            #expect(again.comments == page.comments)
        }
    }
}
