import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// Answers kept from the `services-json` fuzz target (Fuzz/services-json.swift), given to all five
/// service decoders as the target does: each is a batch or a SourceError; every list item is kept or
/// skipped with a reason; the selector takes only absolute http(s) URLs; kept photos round-trip.
@Suite("Service answers: fuzz regressions")
struct ServicesFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/services-fuzz-regressions")
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func regressionFilesExist() {
        #expect(Self.files.count >= 3)
    }

    /// `"total_results":"9223372036854775807"` made Pexels' page count overflow (a trap from one answer):
    /// numbers written as text are bounded like JSON numbers, and the count is nil rather than a crash.
    @Test func hugeNumbersAsTextAreNotRead() throws {
        #expect(JSONFields.int("9223372036854775807") == nil && JSONFields.int("-9223372036854775808") == nil)
        #expect(JSONFields.int(" 8999999999999999 ") == 8_999_999_999_999_999 && JSONFields.int("4932") == 4932)
        let body = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent("pexels-total-int-max.json")))
        let batch = try PexelsService.batch(body, url: "http://127.0.0.1/v1/curated", number: 1, perPage: 80)
        #expect(batch.page.totalPages == nil && batch.page.totalItems == nil && batch.next == nil)
    }

    @Test(arguments: files)
    func decodesConsistently(_ file: String) throws {
        let body = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(file)))
        let parsed = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
        let object = parsed as? [String: Any]
        for number in [1, 2, 20] {
            for perPage in [1, 2, 30] {
                check("openverse", items: (object?["results"] as? [Any])?.count, number: number) { () throws(SourceError) in
                    try OpenverseService.batch(body, url: "http://127.0.0.1/v1/images/?q=x", number: number)
                }
                check("pexels", items: (object?["photos"] as? [Any])?.count, number: number) { () throws(SourceError) in
                    try PexelsService.batch(body, url: "http://127.0.0.1/v1/curated", number: number, perPage: perPage)
                }
                let unsplashItems = (parsed as? [Any])?.count ?? (object?["results"] as? [Any])?.count
                check("unsplash", items: unsplashItems, number: number) { () throws(SourceError) in
                    try UnsplashService.batch(body, url: "http://127.0.0.1/photos", number: number, perPage: perPage,
                                             searching: object != nil)
                }
                if let object, JSONFields.string(object["stat"]) == "ok" {
                    let list = (object["photos"] as? [String: Any])?["photo"] as? [Any]
                    check("flickr", items: list?.count, number: number) { () throws(SourceError) in
                        try FlickrService.batch(object, endpoint: URL(string: "http://127.0.0.1/rest/")!, number: number,
                                               licences: FlickrService.licenceTable(object))
                    }
                }
            }
        }
        if let object, object["error"] == nil {
            let answer = CommonsService.answer(object)
            var merger = CommonsBatchMerger()
            merger.add(answer.pages)
            let once = merger.page()
            check("commons", items: Set(answer.pages.compactMap { JSONFields.int($0["pageid"]) }).count
                    + answer.pages.filter { JSONFields.int($0["pageid"]) == nil }.count, number: nil) { () throws(SourceError) in
                SourceBatch(page: once, next: nil)
            }
            merger.add(answer.pages)
            #expect(merger.page().photos == once.photos, "a repeated answer adds no photo")
        }
    }

    private func check(_ service: String, items: Int?, number: Int?, _ decode: () throws(SourceError) -> SourceBatch) {
        let batch: SourceBatch
        do { batch = try decode() } catch {
            #expect(!error.description.isEmpty)
            return
        }
        let page = batch.page
        let indices = page.skipped.map(\.index)
        #expect(indices == indices.sorted() && page.skipped.allSatisfy { !$0.reason.isEmpty }, "\(service)")
        if let items { #expect(page.photos.count + indices.count == items, "\(service)") }
        if let number, case .page(let next)? = batch.next {
            #expect(next == number + 1 && page.photos.count + indices.count > 0, "\(service)")
        }
        var selector = PhotoSelector(pageLimit: 100, includeNSFW: true)
        let selection = selector.add(page, number: number ?? 1)
        #expect(selection.selected.count + selection.rejected.count == page.photos.count, "\(service)")
        for choice in selection.selected {
            #expect(["http", "https"].contains(choice.imageURL.scheme?.lowercased() ?? ""), "\(service): \(choice.imageURL)")
        }
        let recorded = page.photos.map { photo -> Photo in var photo = photo; photo.downloadPing = nil; return photo }
        let again = try? JSONDecoder().decode([Photo].self, from: JSONEncoder().encode(recorded))
        #expect(again == recorded, "\(service)")
    }
}
