import Foundation

/// A photo service's listing (``PhotoService``: Commons, Openverse, Unsplash, Pexels, Flickr), batch by
/// batch up to ``SourceContext/pages``.
///
/// A batch that cannot be read ends the listing: a cursor API cannot skip one, and a page API that
/// failed after the engine's retries and the client's rate-limit waits would fail again. The first
/// batch failing means the source could not be read at all (exit status 3); a spent rate-limit
/// budget stops the source (also status 3), keeping every photo handed on so far.
struct ServiceSource: PhotoSource {
    var service: any PhotoService

    var name: String { service.name }
    var sourceDescription: String { service.sourceDescription }
    /// A cursor listing: its batches cannot be dealt out to shards (a plan of it can).
    var shardUnit: ShardUnit? { nil }
    var imageURLOrigin: ImageURLOrigin { .server }

    func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader {
        Reader(service: service, context: context, cursor: service.firstCursor)
    }

    func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError) {
        try await service.didDownload(photo, client: client)
    }

    struct Reader: ListingReader {
        let service: any PhotoService
        let context: SourceContext
        var cursor: SourceCursor?
        var number = 0
        lazy var selector = PhotoSelector(pageLimit: .max, includeNSFW: context.includeNSFW, imageSize: context.imageSize)

        init(service: any PhotoService, context: SourceContext, cursor: SourceCursor?) {
            self.service = service
            self.context = context
            self.cursor = cursor
        }

        mutating func next() async -> ListingStep? {
            guard let at = cursor, number < context.pages, !context.isStopping() else { return nil }
            number += 1
            cursor = nil  // a failed batch ends the listing
            let batch: SourceBatch
            do {
                batch = try await service.batch(at: at, client: context.client)
            } catch {
                if context.isStopping() { return nil }
                let reason = PipelineError.source(error).description
                var stops = false
                if case .rateLimited = error { stops = true }
                return .failure(ListingFailure(page: number, reason: reason, isSourceError: number == 1, stopsSource: stops))
            }
            for address in await context.client.addresses { context.noteAddress(address) }
            let selection = selector.add(batch.page, number: number)
            cursor = batch.next
            let unusable = selection.unusable(of: batch.page)
            return .page(ListedPage(number: number, totalPages: batch.page.totalPages, added: selection.selected.count,
                                    skipped: batch.page.skipped.map { "item \($0.index): \($0.reason)" },
                                    unusable: unusable, photos: selection.selected))
        }
    }
}
