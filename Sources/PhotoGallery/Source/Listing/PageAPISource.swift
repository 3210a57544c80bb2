import Foundation

/// A 500px-style API's listing pages (``FiveHundredPxService``), read a few pages ahead of the one being
/// handed on. A shard reads its own first page (to learn `total_pages`) and its own pages only. A failed
/// page is reported and the listing goes on, except the first: then nothing is known of the source.
struct PageAPISource: PhotoSource {
    /// The API, its key, photos per page and attempts at a page that is not JSON.
    var api: FiveHundredPxService

    var name: String { api.name }
    var sourceDescription: String { api.sourceDescription }
    var shardUnit: ShardUnit? { .page }
    var imageURLOrigin: ImageURLOrigin { .server }
    /// The consumer key, when given: it travels in the pages' query.
    var secrets: [String] { api.consumerKey.map { [$0] } ?? [] }

    /// `/photos/ID/comments?page=1` under the API's base.
    func comments(of id: Int, engine: TransferEngine, maxBytes: Int64) async -> [Comment]? {
        let route = PhotoAPIRoute(base: api.base, endpoint: .comments(photoID: id, page: 1))
        guard let response = try? await engine.request(route).maximumBodySize(maxBytes).validate().response(),
              let page = try? CommentPage.decode(Data(response.body), from: route.endpoint.url(relativeTo: api.base))
        else { return nil }
        return page.comments
    }

    /// Listing pages fetched at once ahead of the one being handed on, once the total is known (before
    /// that, only the next page: asking past the end would only collect 404s). Pages are small; their
    /// server's latency, not their size, is what a re-run of a finished gallery waits on.
    static let pagesAhead = 3

    func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader {
        Reader(api: api, shard: slice, context: context)
    }

    struct Reader: ListingReader {
        let api: FiveHundredPxService
        let shard: ShardSpec
        let context: SourceContext
        var selector: PhotoSelector
        var number: Int?
        var knownTotal: Int?
        var fetches: [Int: Task<Result<PhotoPage, SourceError>, Never>] = [:]

        init(api: FiveHundredPxService, shard: ShardSpec, context: SourceContext) {
            self.api = api
            self.shard = shard
            self.context = context
            selector = PhotoSelector(pageLimit: context.pages, includeNSFW: context.includeNSFW,
                                     imageSize: context.imageSize, shard: shard)
            selector.keepsSelected = false  // only the ids seen: memory stays flat over any number of pages
            number = shard.firstPage
            fetchAhead(from: shard.firstPage)
        }

        /// Starts fetches for `first` and, when the total is known, the pages after it (within the limits).
        private mutating func fetchAhead(from first: Int) {
            let last = knownTotal == nil ? first : first + (PageAPISource.pagesAhead - 1) * shard.count
            for page in stride(from: first, through: last, by: shard.count)
            where page <= context.pages && page <= (knownTotal ?? .max) && fetches[page] == nil {
                let (api, client, note) = (api, context.client, context.noteAddress)
                fetches[page] = Task {
                    do throws(SourceError) {
                        // Transfer errors were retried by the engine, rate limits waited out by the client,
                        // and a body that is not a usable page asked for again by the source.
                        let batch = try await api.batch(at: .page(page), client: client)
                        for address in await client.addresses { note(address) }
                        return .success(batch.page)
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }

        mutating func next() async -> ListingStep? {
            guard let current = number, let task = fetches[current], !context.isStopping() else { return nil }
            number = nil
            // The page fetch is a task of its own (it overlaps the photos); a stop cancels the feed, and
            // the fetch must end with it rather than hold the stop up until the server answers.
            let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
            fetches[current] = nil
            if context.isStopping() { return nil }  // a page cut short by the stop is not a failure of the source
            switch result {
            case .success(let page):
                let selection = selector.add(page, number: current)
                knownTotal = page.totalPages ?? knownTotal
                number = selector.nextPage
                if let next = number { fetchAhead(from: next) }
                let unusable = selection.unusable(of: page)
                return .page(ListedPage(number: current, totalPages: page.totalPages, added: selection.selected.count,
                                        skipped: page.skipped.map { "item \($0.index): \($0.reason)" },
                                        unusable: unusable, photos: selection.selected))
            case .failure(let error):
                // The first page failing means nothing is known about the source: stop (exit status 3).
                let candidate = shard.page(after: current)
                if current != shard.firstPage, candidate <= context.pages, candidate <= (knownTotal ?? .max) {
                    number = candidate
                    fetchAhead(from: candidate)
                }
                return .failure(ListingFailure(page: current, reason: PipelineError.source(error).description,
                                               isSourceError: current == shard.firstPage))
            }
        }

        mutating func close() {
            for task in fetches.values { task.cancel() }
            fetches = [:]
        }
    }
}
