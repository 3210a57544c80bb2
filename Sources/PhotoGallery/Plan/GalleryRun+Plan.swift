import Foundation

extension GalleryRun {
    /// `fetch-gallery plan`: reads the job's listing once (all of it, whatever ``GalleryJob/shard``)
    /// through the same feed a run reads, and writes `plan.jsonl` in the gallery folder
    /// (``PlanFile``), streamed to a temporary file and published by rename; downloads no photo.
    ///
    /// A listing that could not be read whole (its first page, or any later page, failed; or the plan
    /// was stopped) leaves the previous plan in place: the summary says why. Planning again over the
    /// same listing writes the same bytes (and leaves the file untouched).
    public func plan() async throws(PipelineError) -> GalleryRunSummary {
        let path = PlanFile.path(in: job.folder)
        let file: StreamedFile
        do {
            try POSIX.makeDirectories(job.folder)
            file = try StreamedFile(path: path)
            try file.write(try Self.planLine(PlanFile.HeaderLine(plan: .init(source: job.sourceDescription,
                                                                                  version: PlanFile.version))))
        } catch { throw .gallery(error) }
        let (photos, feed) = AsyncStream<QueuedPhoto>.makeStream()
        let feeding = Task { await self.feed(from: self.listing, into: feed, journal: nil) }
        var written = 0
        var failure: GalleryError?
        for await photo in photos {
            if failure == nil {
                do { try file.write(try Self.planLine(photo.selected)) } catch {
                    failure = error
                    requestStop()
                }
                written += 1
            }
            await permits.release()
        }
        await feeding.value
        if let failure { throw .gallery(failure) }
        var result = summary.withLock { $0 }
        guard result.sourceError == nil, result.pagesFailed == 0, !isStopping else {
            file.abandon()
            result.interrupted = isStopping
            return result
        }
        do {
            let end = PlanFile.End(photos: written, listingAddress: apiAddress.withLock { $0 })
            try file.write(try Self.planLine(PlanFile.EndLine(end: end)))
            try file.commit(onlyIfChanged: true)
        } catch { throw .gallery(error) }
        return result
    }

    private static func planLine(_ value: some Encodable) throws(GalleryError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")] } catch {
            throw .encoding(path: PlanFile.name, reason: String(describing: error))
        }
    }
}
