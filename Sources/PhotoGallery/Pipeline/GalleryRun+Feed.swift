import Foundation

extension GalleryRun {
    /// Feeds `source` into photo tasks until it ends or the run stops, while a store away from this machine
    /// gets the journal every so often. A stop cancels the work: the feed and every photo task (their
    /// downloads end as `.cancelled`, partials kept for the next run).
    func runPhotos(from source: any PhotoSource, in workspace: RunWorkspace) async {
        let (photos, feed) = AsyncStream<QueuedPhoto>.makeStream()
        let checkpoints = workspace.checkpoints(to: store)
        // The runner's one task (a stop cancels it, and with it the feed and every photo task), on the pool's
        // threads: a photo's steps between its download and its imaging need no hop through Swift's pool.
        // A discarding group: a plain task group keeps every finished child until its result is consumed,
        // which held ~30 KB per photo to the end of the run (288 MB at 8,000 photos).
        await runner.run {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.feed(from: source, into: feed, journal: workspace.journal) }
                for await photo in photos {
                    group.addTask {
                        await self.process(photo, in: workspace)
                        await self.permits.release()
                    }
                }
            }
        }
        checkpoints?.cancel()
    }

    /// The one feed loop: reads `source` (any listing kind, whole or a shard's slice) step by step and
    /// hands the selected photos on; each photo waits for a permit, so the feed never runs far ahead of
    /// the downloads. Pages are counted and announced here, failures recorded in the summary.
    func feed(from source: any PhotoSource, into feed: AsyncStream<QueuedPhoto>.Continuation, journal: Journal?) async {
        defer { feed.finish() }
        var reader = source.reader(slice: .whole, context: sourceContext)
        defer { reader.close() }
        while let step = await reader.next() {
            switch step {
            case .page(let page):
                if page.counted { count { $0.pagesFetched += 1 } }
                emit(.pageFetched(page: page.number, totalPages: page.totalPages, added: page.added, skippedItems: page.skipped))
                failUnusable(page.unusable, number: page.number, journal: journal)
                await hand(page.photos, to: feed, journal: journal)
            case .photos(let photos):
                await hand(photos, to: feed, journal: journal)
            case .failure(let failure):
                count { s in
                    if failure.page != nil { s.pagesFailed += 1 }
                    if failure.isSourceError { s.sourceError = failure.reason }
                    if failure.stopsSource { s.sourceStopped = failure.reason }
                }
                if let page = failure.page { emit(.pageFailed(page: page, reason: failure.reason)) }
            }
        }
    }

    /// What the sources read with: this run's client, the job's selection rules, its stop and address rule.
    var sourceContext: SourceContext {
        SourceContext(client: client, pages: job.pages, includeNSFW: job.includeNSFW, imageSize: job.imageSize,
                      isStopping: { [weak self] in self?.isStopping ?? true },
                      noteAddress: { [weak self] in self?.noteAPIAddress($0) })
    }

    /// A listed photo whose image URLs are none of them http(s) (`file:///etc/passwd`, `javascript:`...)
    /// cannot be fetched: it goes in the manifest as failed, naming what it offered, rather than vanishing.
    /// (NSFW photos and duplicates are left out on purpose and are not failures.)
    func failUnusable(_ photos: [Photo], number: Int, journal: Journal?) {
        for photo in photos {
            let offered = photo.images.map(\.url) + (photo.imageURL.map { [$0] } ?? [])
            let error = PipelineError.source(.noImageURL(photoID: photo.id, offered: offered))
            let metadata = PhotoMetadata(id: photo.id, name: photo.name,
                                         photographer: photo.user?.displayName,
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
            feed.yield((selected: photo, isNew: isNew, seenJournaled: journaled))
        }
    }
}

/// The feed's hand-over to a photo task: the photo, whether the journal held no record of it before
/// (nothing to read back), and whether the feed journaled its `seen` record (the task does not write
/// it again).
typealias QueuedPhoto = (selected: SelectedPhoto, isNew: Bool, seenJournaled: Bool)

extension GalleryRun {
    /// Tells the source a photo was downloaded, when it asks to be told (Unsplash). A failure here does
    /// not cost the photo: it is reported, and the photo stays in the gallery.
    func reportDownload(of photo: Photo) async {
        do { try await listing.didDownload(photo, client: client) } catch {
            emit(.sourceNotice(service: listing.name, message: "could not report the download of photo \(photo.id): \(error)"))
        }
    }
}
