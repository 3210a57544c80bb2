// libFuzzer target: decoding a listing page and a comments page into the models (PhotoPage,
// CommentPage), as the pipeline does with every page body a server sends.
//
// Invariants: a body is either a page or a SourceError (never a crash or another error type); one
// bad item never costs the page: items kept plus items skipped equal the array's length, skipped
// indices are increasing and in range; every kept photo has an image (image_url or images); the
// decode is deterministic; and a kept page encodes and decodes back to the same photos/comments.
@testable import PhotoGallery
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPageJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = Data(UnsafeRawBufferPointer(start: data, count: size))
    let url = URL(string: "http://127.0.0.1/v1/photos?page=1")!
    let length = { (key: String) -> Int? in
        // Only used for the kept+skipped count; JSONSerialization is the independent reference.
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        return (object[key] as? [Any])?.count
    }

    if let page = try? PhotoPage.decode(body, from: url) {
        check(kept: page.photos.count, skipped: page.skipped, expected: length("photos"))
        for photo in page.photos {
            require(photo.imageURL != nil || !photo.images.isEmpty, "photo \(photo.id) kept without an image")
        }
        require(page == (try? PhotoPage.decode(body, from: url)), "PhotoPage decode is not deterministic")
        let again = try? PhotoPage.decode(JSONEncoder().encode(page), from: url)
        require(again?.photos == page.photos, "photos do not survive encode/decode")
        require(again?.skipped.isEmpty == true, "re-encoded page has skipped items")
    }
    if let page = try? CommentPage.decode(body, from: url) {
        check(kept: page.comments.count, skipped: page.skipped, expected: length("comments"))
        let again = try? CommentPage.decode(JSONEncoder().encode(page), from: url)
        require(again?.comments == page.comments, "comments do not survive encode/decode")
    }
    return 0
}

func check(kept: Int, skipped: [SkippedItem], expected: Int?) {
    let indices = skipped.map(\.index)
    require(indices == indices.sorted() && Set(indices).count == indices.count, "skipped indices \(indices)")
    require(indices.allSatisfy { $0 >= 0 && $0 < kept + skipped.count }, "skipped index out of range: \(indices)")
    require(skipped.allSatisfy { !$0.reason.isEmpty }, "skipped item without a reason")
    if let expected {
        require(kept + skipped.count == expected, "\(kept) kept + \(skipped.count) skipped of \(expected) items")
    }
}
