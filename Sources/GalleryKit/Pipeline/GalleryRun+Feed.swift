import Foundation

extension GalleryRun {
    /// Hands selected photos on, page by page, fetching the next page while this one's photos are
    /// taken; each photo waits for a permit, so the feed never runs far ahead of the downloads.
    func feed(into feed: AsyncStream<QueuedPhoto>.Continuation, journal: Journal?) async {
        defer { feed.finish() }
        switch job.source {
        case .urlList(let text, let name):
            await feedURLList(text, name: name, into: feed, journal: journal)
        case .api(let base, let key):
            await feedPages(base: base, key: key, into: feed, journal: journal)
        case .plan(let path, _):
            await feedPlan(path, into: feed, journal: journal)
        case .service(let source):
            await feedBatches(of: source, into: feed, journal: journal)
        }
    }

    /// Listing pages fetched at once ahead of the one being handed on, once the total is known (before
    /// that, only the next page: asking past the end would only collect 404s). Pages are small; their
    /// server's latency, not their size, is what a re-run of a finished gallery waits on.
    static let pagesAhead = 3

    private func feedPages(base: URL, key: String?, into feed: AsyncStream<QueuedPhoto>.Continuation,
                           journal: Journal?) async {
        let shard = job.shard ?? .whole
        var selector = PhotoSelector(pageLimit: job.pages, includeNSFW: job.includeNSFW, imageSize: job.imageSize,
                                     shard: shard)
        selector.keepsSelected = false  // only the ids seen: memory stays flat over any number of pages
        // A shard reads its own first page (to learn total_pages) and its own pages only.
        var number = shard.firstPage
        var knownTotal: Int?
        var fetches: [Int: Task<Result<PhotoPage, PipelineError>, Never>] = [:]
        /// Starts fetches for `first` and, when the total is known, the pages after it (within the limits).
        func fetchAhead(from first: Int) {
            let last = knownTotal == nil ? first : first + (Self.pagesAhead - 1) * shard.count
            for page in stride(from: first, through: last, by: shard.count)
            where page <= job.pages && page <= (knownTotal ?? .max) && fetches[page] == nil {
                fetches[page] = Task { await fetchPage(page, base: base, key: key) }
            }
        }
        fetchAhead(from: shard.firstPage)
        while let task = fetches[number], !isStopping {
            // The page fetch is a task of its own (it overlaps the photos); a stop cancels this feed,
            // and the fetch must end with it rather than hold the stop up until the server answers.
            let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
            fetches[number] = nil
            if isStopping { break }  // a page cut short by the stop is not a failure of the source
            var next: Int?
            switch result {
            case .success(let page):
                let selection = selector.add(page, number: number)
                knownTotal = page.totalPages ?? knownTotal
                next = selector.nextPage
                count { $0.pagesFetched += 1 }
                let skipped = page.skipped.map { "item \($0.index): \($0.reason)" }
                emit(.pageFetched(page: number, totalPages: page.totalPages, added: selection.selected.count,
                                  skippedItems: skipped))
                if let next { fetchAhead(from: next) }
                failUnusable(selection, of: page, number: number, journal: journal)
                await hand(selection.selected, to: feed, journal: journal)
            case .failure(let error):
                count { s in
                    s.pagesFailed += 1
                    if number == shard.firstPage { s.sourceError = error.description }
                }
                emit(.pageFailed(page: number, reason: error.description))
                // The first page failing means nothing is known about the source: stop (exit status 3).
                let candidate = shard.page(after: number)
                if number != shard.firstPage, candidate <= job.pages, candidate <= (knownTotal ?? .max) {
                    next = candidate
                    fetchAhead(from: candidate)
                }
            }
            guard let next else { break }
            number = next
        }
        for task in fetches.values { task.cancel() }
    }

    /// A listed photo whose image URLs are none of them http(s) (`file:///etc/passwd`, `javascript:`...)
    /// cannot be fetched: it goes in the manifest as failed, naming what it offered, rather than vanishing.
    /// (NSFW photos and duplicates are left out on purpose and are not failures.)
    func failUnusable(_ selection: PageSelection, of page: PhotoPage, number: Int, journal: Journal?) {
        for rejected in selection.rejected where rejected.reason == .noUsableImage {
            guard let photo = page.photos.first(where: { $0.id == rejected.id }) else { continue }
            let offered = photo.images.map(\.url) + (photo.imageURL.map { [$0] } ?? [])
            let error = PipelineError.source(.noImageURL(photoID: photo.id, offered: offered))
            let metadata = PhotoMetadata(id: photo.id, name: photo.name,
                                         photographer: photo.user.map { $0.fullname?.isEmpty == false ? $0.fullname! : $0.username },
                                         rating: photo.rating, description: photo.description, page: number)
            try? journal?.append(.seen(metadata))
            try? journal?.append(.failed(id: photo.id, reason: error.description))
            count { $0.photosFailed += 1 }
            emit(.photoFailed(id: photo.id, name: photo.name, url: offered.first ?? "", reason: error.description))
        }
    }

    /// Gives photos to the consumer, one permit each; stops when the run is stopping. Each is
    /// journaled as seen here, in listing order, so the gallery keeps the API's order (the photo
    /// tasks start concurrently, and their own `seen` records would land in scheduling order).
    func hand(_ photos: [SelectedPhoto], to feed: AsyncStream<QueuedPhoto>.Continuation,
                      journal: Journal?) async {
        for photo in photos {
            guard await permits.acquire(), !isStopping else { return }
            let isNew = journal.map { !$0.contains(photo.photo.id) } ?? true
            // A failure here is not lost: the photo task journals `seen` itself and reports the error.
            let journaled = (try? journal?.append(.seen(PhotoMetadata(photo)))) != nil
            count { $0.photosQueued += 1 }
            emit(.photoQueued(id: photo.photo.id, name: photo.photo.name))
            feed.yield(QueuedPhoto(selected: photo, isNew: isNew, seenJournaled: journaled))
        }
    }
}

/// A photo handed from the feed to its task, with what the feed learnt of it in the journal.
struct QueuedPhoto: Sendable {
    var selected: SelectedPhoto
    /// The journal held no record of the photo before this run queued it: nothing to read back.
    var isNew: Bool
    /// The feed journaled its `seen` record (the task does not write it again).
    var seenJournaled: Bool
}

extension GalleryRun {

    /// One listing page, read through the 500px source (``FiveHundredPxSource``): transfer errors were
    /// already retried by the engine, rate limits waited out by the client, a request that failed for any
    /// reason but a 4xx or a refusal that would repeat asked again by the client (a gzip bomb served once),
    /// and a body that is not a usable page asked for again a few times.
    func fetchPage(_ number: Int, base: URL, key: String?) async -> Result<PhotoPage, PipelineError> {
        let source = FiveHundredPxSource(base: base, consumerKey: key, perPage: job.perPage, pageAttempts: job.pageAttempts)
        do {
            let batch = try await source.batch(at: .page(number), client: client)
            for address in await client.addresses { noteAPIAddress(address) }
            return .success(batch.page)
        } catch {
            return .failure(.source(error))
        }
    }
}
