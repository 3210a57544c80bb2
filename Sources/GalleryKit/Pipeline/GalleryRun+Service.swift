import Foundation

extension GalleryRun {
    /// Hands on the photos of a service's listing (``PhotoSource``), batch by batch up to `job.pages`.
    ///
    /// A batch that cannot be read ends the listing: a cursor API cannot skip one, and a page API that
    /// failed after the engine's retries and the client's rate-limit waits would fail again. The first
    /// batch failing means the source could not be read at all (exit status 3); a spent rate-limit
    /// budget stops the source with ``GalleryRunSummary/sourceStopped`` (also status 3), keeping every
    /// photo handed on so far.
    func feedBatches(of source: any PhotoSource, into feed: AsyncStream<QueuedPhoto>.Continuation,
                     journal: Journal?) async {
        var selector = PhotoSelector(pageLimit: .max, includeNSFW: job.includeNSFW, imageSize: job.imageSize)
        var cursor: SourceCursor? = source.firstCursor
        var number = 0
        while let at = cursor, number < job.pages, !isStopping {
            number += 1
            let batch: SourceBatch
            do {
                batch = try await source.batch(at: at, client: client)
            } catch {
                if isStopping { break }
                let reason = PipelineError.source(error).description
                count { s in
                    s.pagesFailed += 1
                    if number == 1 { s.sourceError = reason }
                    if case .rateLimited = error { s.sourceStopped = reason }
                }
                emit(.pageFailed(page: number, reason: reason))
                break
            }
            for address in await client.addresses { noteAPIAddress(address) }
            let selection = selector.add(batch.page, number: number)
            count { $0.pagesFetched += 1 }
            let skipped = batch.page.skipped.map { "item \($0.index): \($0.reason)" }
            emit(.pageFetched(page: number, totalPages: batch.page.totalPages, added: selection.selected.count,
                              skippedItems: skipped))
            failUnusable(selection, of: batch.page, number: number, journal: journal)
            await hand(selection.selected, to: feed, journal: journal)
            cursor = batch.next
        }
    }

    /// Tells the service a photo was downloaded, when it asks to be told (Unsplash). A failure here does
    /// not cost the photo: it is reported, and the photo stays in the gallery.
    func reportDownload(of photo: Photo) async {
        guard case .service(let source) = job.source else { return }
        do { try await source.didDownload(photo, client: client) } catch {
            emit(.sourceNotice(service: source.name, message: "could not report the download of photo \(photo.id): \(error)"))
        }
    }
}
