// libFuzzer target: the answers of the five photo services (Wikimedia Commons, Openverse, Unsplash,
// Pexels, Flickr) decoded by the same static decoders each source's batch(at:client:) calls after its
// GET, every input given to all five; then the PhotoSelector's choice of an image URL.
//
// Invariants: an answer is a batch or a SourceError (never a crash; the decoders throw no other type);
// every item of the answer's list is kept as a photo or skipped with a reason (kept + skipped = the
// list's length, skipped indices increasing and in range); a kept photo has a non-empty image URL; the
// selector takes each kept photo or rejects it with a reason, and what it takes is an absolute http(s)
// URL with a host (file:, javascript:, relative URLs never reach the downloader); a listing only goes on
// to the next page number, never after an empty page, and Openverse never past page 20; a repeated
// Commons answer (an iicontinue round) adds no photo; a Flickr licence named on a photo comes from the
// licence table; the decode is deterministic, and kept photos survive an encode/decode round trip.
@testable import PhotoGallery
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServicesJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let body = [UInt8](raw)
    // JSONSerialization is the independent reference for the lists' lengths.
    let parsed = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
    let object = parsed as? [String: Any]
    let seed = fuzzSeed(raw)
    let number = 1 + Int(seed % 21)

    let openverse = "http://127.0.0.1/v1/images/?q=sea&page=\(number)&page_size=20"
    if let batch = checkBatch("openverse", number: number, items: (object?["results"] as? [Any])?.count,
                              { () throws(SourceError) in try OpenverseService.batch(body, url: openverse, number: number) }) {
        require((batch.page.totalPages ?? 0) <= OpenverseService.maxPage, "openverse: \(batch.page.totalPages!) pages")
        if case .page(let next)? = batch.next { require(next <= OpenverseService.maxPage, "openverse: goes on to page \(next)") }
    }

    let perPage = 1 + Int((seed >> 8) % 80)
    _ = checkBatch("pexels", number: number, items: (object?["photos"] as? [Any])?.count, { () throws(SourceError) in
        try PexelsService.batch(body, url: "http://127.0.0.1/v1/curated?page=\(number)", number: number, perPage: perPage)
    })

    let unsplashItems = (parsed as? [Any])?.count ?? (object?["results"] as? [Any])?.count
    if let batch = checkBatch("unsplash", number: number, items: unsplashItems, { () throws(SourceError) in
        try UnsplashService.batch(body, url: "http://127.0.0.1/photos?page=\(number)", number: number,
                                 perPage: min(perPage, 30), searching: object != nil)
    }) {
        for photo in batch.page.photos {
            for link in [photo.credit?.authorURL, photo.credit?.pageURL].compactMap({ $0 }) {
                require(link.hasSuffix(UnsplashService.referral), "unsplash: link without the referral: \(link)")
            }
        }
    }

    if let object, JSONFields.string(object["stat"]) == "ok" {
        let licences = FlickrService.licenceTable(object)
        let list = (object["photos"] as? [String: Any])?["photo"] as? [Any]
        if let batch = checkBatch("flickr", number: number, items: list?.count, { () throws(SourceError) in
            try FlickrService.batch(object, endpoint: URL(string: "http://127.0.0.1/services/rest/")!, number: number,
                                   licences: licences)
        }) {
            let names = Set(licences.values.map(\.name))
            for photo in batch.page.photos {
                if let licence = photo.credit?.licence { require(names.contains(licence), "flickr: licence \(licence) not in the table") }
            }
        }
    }

    if let object, JSONFields.object(object["error"]) == nil {
        fuzzCommons(object)
    }
    return 0
}

/// One Commons answer merged as a batch, then the same answer merged again (the repeat an
/// `iicontinue` round sends): the pages are counted once.
func fuzzCommons(_ object: [String: Any]) {
    let answer = CommonsService.answer(object)
    var merger = CommonsBatchMerger()
    merger.add(answer.pages)
    let page = merger.page()
    var distinct = Set<Int>()
    var unnumbered = 0
    for item in answer.pages {
        if let id = JSONFields.int(item["pageid"]) { distinct.insert(id) } else { unnumbered += 1 }
    }
    let batch = SourceBatch(page: page, next: answer.next.map { .continuation($0) })
    _ = checkBatch("commons", number: nil, items: distinct.count + unnumbered, { () throws(SourceError) in batch })
    merger.add(answer.pages)
    let twice = merger.page()
    require(twice.photos.count == page.photos.count, "commons: a repeated answer added photos")
    require(twice.photos.count + twice.skipped.count == distinct.count + 2 * unnumbered,
            "commons: a repeated answer merged \(twice.photos.count)+\(twice.skipped.count)")
    if answer.pages.isEmpty, object["query"] == nil, answer.next == nil {
        require(answer.batchComplete, "commons: an empty answer does not end the batch")
    }
}

/// The checks every service shares; `number` is the page asked for (nil for a cursor API).
func checkBatch(_ service: String, number: Int?, items: Int?,
                _ decode: () throws(SourceError) -> SourceBatch) -> SourceBatch? {
    let batch: SourceBatch
    do { batch = try decode() } catch {
        require(!error.description.isEmpty, "\(service): an error without a description")
        return nil
    }
    let page = batch.page
    let kept = page.photos.count
    let indices = page.skipped.map(\.index)
    require(indices == indices.sorted() && Set(indices).count == indices.count, "\(service): skipped indices \(indices)")
    require(indices.allSatisfy { $0 >= 0 && $0 < kept + indices.count }, "\(service): skipped index out of range: \(indices)")
    require(page.skipped.allSatisfy { !$0.reason.isEmpty }, "\(service): skipped item without a reason")
    if let items { require(kept + indices.count == items, "\(service): \(kept) kept + \(indices.count) skipped of \(items)") }
    for photo in page.photos {
        let urls = photo.images.map(\.url) + [photo.imageURL].compactMap { $0 }
        require(!urls.isEmpty, "\(service): photo \(photo.id) kept without an image")
        require(urls.allSatisfy { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }, "\(service): empty image URL")
    }
    if let number {
        if case .page(let next)? = batch.next { require(next == number + 1, "\(service): page \(number) goes on to \(next)") }
        require(batch.next == nil || kept + indices.count > 0, "\(service): goes on after an empty page")
    }
    require((try? decode()) == batch, "\(service): decode is not deterministic")

    for includeNSFW in [false, true] {
        var selector = PhotoSelector(pageLimit: 1000, includeNSFW: includeNSFW)
        let selection = selector.add(page, number: number ?? 1)
        require(selection.selected.count + selection.rejected.count == kept,
                "\(service): \(selection.selected.count) selected + \(selection.rejected.count) rejected of \(kept)")
        for choice in selection.selected {
            let scheme = choice.imageURL.scheme?.lowercased()
            require(scheme == "http" || scheme == "https", "\(service): selected \(choice.imageURL)")
            require(!(choice.imageURL.host ?? "").isEmpty, "\(service): selected \(choice.imageURL) has no host")
        }
    }

    // downloadPing is not part of the recorded photo (it is asked of the source again).
    let recorded = page.photos.map { photo -> Photo in var photo = photo; photo.downloadPing = nil; return photo }
    let again = try? JSONDecoder().decode([Photo].self, from: JSONEncoder().encode(recorded))
    require(again == recorded, "\(service): photos do not survive encode/decode")
    return batch
}
