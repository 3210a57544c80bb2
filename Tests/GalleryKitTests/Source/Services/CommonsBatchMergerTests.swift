import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// One MediaWiki batch that took several answers: pages merged by `pageid`.
@Suite struct CommonsBatchMergerTests {
    static func page(_ id: Int, info: Bool, artist: Any = "<a href=\"https://c/User:A\">A</a>") -> [String: Any] {
        var page: [String: Any] = ["pageid": id, "ns": 6, "title": "File:P\(id).jpg"]
        if info {
            page["imageinfo"] = [[
                "url": "https://upload/P\(id).jpg", "descriptionurl": "https://c/File:P\(id).jpg", "width": 640, "height": "480",
                "mime": "image/jpeg",
                "extmetadata": ["Artist": ["value": artist], "LicenseShortName": ["value": "CC BY 4.0"],
                                "ObjectName": ["value": 1234], "LicenseUrl": ["value": "https://cc/by/4.0"]],
            ] as [String: Any]]
        }
        return page
    }

    @Test func imageinfoFromALaterAnswerIsMergedByPageid() {
        var merger = CommonsBatchMerger()
        merger.add([Self.page(1, info: true), Self.page(2, info: false)])
        merger.add([Self.page(1, info: false), Self.page(2, info: true)])
        let page = merger.page()
        #expect(page.photos.map(\.id) == [1, 2], "each page once, in first-seen order")
        #expect(page.skipped.isEmpty)
        let photo = page.photos[0]
        #expect(photo.name == "1234", "a number in extmetadata is read as text")
        #expect(photo.height == 480 && photo.credit?.licence == "CC BY 4.0" && photo.credit?.authorURL == "https://c/User:A")
        #expect(photo.credit?.pageURL == "https://c/File:P1.jpg")
    }

    @Test func aPageThatNeverGotImageinfoIsSkippedWithItsTitle() {
        var merger = CommonsBatchMerger()
        merger.add([Self.page(1, info: false)])
        let page = merger.page()
        #expect(page.photos.isEmpty && page.skipped.first?.reason.contains("File:P1.jpg") == true)
    }
}
