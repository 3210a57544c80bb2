import Foundation
import GallerySync
@testable import GalleryKit
@testable import PhotoGallery

/// Readers drained step by step, with a context that never stops and records the noted addresses.
enum ListingKit {
    static func context(_ client: SourceClient, pages: Int = 100, addresses: Locked<[String]> = Locked([])) -> SourceContext {
        SourceContext(client: client, pages: pages, includeNSFW: false, imageSize: nil, isStopping: { false },
                      noteAddress: { address in if let address { addresses.withLock { $0.append(address) } } })
    }

    /// Every step of `source`'s listing, as one shard of it (`shard` nil: the whole, unwrapped).
    static func steps(_ source: any PhotoSource, shard: ShardSpec?, client: SourceClient,
                      pages: Int = 100) async -> [ListingStep] {
        let read: any PhotoSource = shard.map { ShardedSource(base: source, shard: $0) } ?? source
        var reader = read.reader(slice: .whole, context: context(client, pages: pages))
        defer { reader.close() }
        var steps: [ListingStep] = []
        while let step = await reader.next() { steps.append(step) }
        return steps
    }

    /// The photos handed on, in order.
    static func photos(_ steps: [ListingStep]) -> [SelectedPhoto] {
        steps.flatMap { step -> [SelectedPhoto] in
            switch step {
            case .page(let page): page.photos
            case .photos(let photos): photos
            case .failure: []
            }
        }
    }

    static func pages(_ steps: [ListingStep]) -> [ListedPage] {
        steps.compactMap { if case .page(let page) = $0 { page } else { nil } }
    }

    static func failures(_ steps: [ListingStep]) -> [ListingFailure] {
        steps.compactMap { if case .failure(let failure) = $0 { failure } else { nil } }
    }

    /// An engine that is never asked for anything (URL lists and plans make no request).
    static func idleEngine() -> TransferEngine { TransferEngine(configuration: TransferConfiguration()) }
}

/// A photo service answering canned batches, one per page number; `failAt` throws there instead.
struct CannedService: PhotoService {
    var batches: [[Photo]]
    var failAt: [Int: SourceError] = [:]

    var name: String { "canned" }
    var sourceDescription: String { "canned listing" }
    var firstCursor: SourceCursor { .page(1) }

    func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch {
        guard case .page(let number) = cursor else { throw .unusable(service: name, reason: "pages only") }
        if let error = failAt[number] { throw error }
        return SourceBatch(page: PhotoPage(totalPages: batches.count, photos: batches[number - 1]),
                           next: number < batches.count ? .page(number + 1) : nil)
    }

    static func photo(_ id: Int) -> Photo {
        Photo(id: id, name: "photo \(id)", images: [PhotoImage(size: 2048, url: "http://127.0.0.1:9/\(id).jpg")])
    }
}
