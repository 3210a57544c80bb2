import Foundation
import GallerySystem

extension GalleryRun {
    /// One photo, in three steps, each journaled so nothing complete is done again by a later run: the
    /// original (reused when recorded, else downloaded), the renditions missing (made on the worker pool
    /// from one decode, and journaled there), then what the run records (comments, counts, the event).
    func process(_ queued: QueuedPhoto, in workspace: RunWorkspace) async {
        let journal = workspace.journal
        let selected = queued.selected
        let photo = selected.photo
        let url = selected.imageURL.absoluteString
        if !queued.seenJournaled {
            do {
                try journal.append(.seen(PhotoMetadata(selected)))
            } catch {
                return fail(photo, url: url, .gallery(error), journal: journal)
            }
        }
        // This photo's entry only: a copy of the whole state would make the next append copy every entry.
        // A photo new to the journal has nothing recorded but its `seen`: its entry is not read back.
        let entry = queued.isNew ? nil : journal.entry(of: photo.id)
        // A journaled original whose file vanished or changed size is not trusted.
        let recorded = entry?.original.flatMap { store.size(of: $0.path) == Int64($0.bytes) ? $0 : nil }
        let original = workspace.place(of: selected, recorded: recorded, in: store)

        var fetched = FetchedOriginal()
        if recorded == nil {
            guard let downloaded = await fetchOriginal(selected, to: original, journal: journal) else { return }
            fetched = downloaded
        }
        let thumbnails = recorded == nil ? [:] : entry?.thumbnails ?? [:]
        guard let made = await makeRenditions(of: photo, url: url, at: original, recorded: recorded, thumbnails: thumbnails,
                                              body: fetched.body, inStore: fetched.inStore, journal: journal) else { return }
        // Comments are extras: a source without them, or a failure, leaves them out.
        if let spill = workspace.comments, let comments = await listing.comments(of: photo.id, engine: engine,
                                                                                maxBytes: job.maxPageBytes) {
            spill.set(comments, for: photo.id)
        }
        count { $0.photosOK += 1 }
        emit(.photoFinished(id: photo.id, name: photo.name, downloaded: fetched.downloaded, thumbnailsMade: made))
    }

    /// An original this run downloaded: the bytes fetched, and the body when it arrived whole in memory
    /// and is not written yet (the worker that hashes and decodes it writes it too).
    struct FetchedOriginal {
        var downloaded: Int64 = 0
        var body: UnpublishedDownload?
        /// The store already held the original, which the journal did not record: a run was killed
        /// between storing it and journaling it (a bucket gets each file as it is made, the journal only
        /// every so often), so it is fetched back from the store rather than downloaded again.
        var inStore = false
    }

    /// Step one: the original, downloaded to its place unless a complete file is already there, after
    /// the site's AI opt-out when the job honours it. Nil when the photo ends here: failed, opted out (each
    /// journaled and reported), or the run stopping (a partial stays for the next run).
    private func fetchOriginal(_ selected: SelectedPhoto, to original: OriginalPlace, journal: Journal) async -> FetchedOriginal? {
        let (photo, url) = (selected.photo, selected.imageURL.absoluteString)
        guard !isStopping, !Task.isCancelled else { return nil }
        var fetched = FetchedOriginal()
        // Originals are only ever published by a rename after verification: one that exists is complete.
        guard !original.stored else {
            fetched.inStore = true
            return fetched
        }
        original.makeFolder()
        if !original.isDownloaded {
            // The site's AI opt-out, when honoured: its files before the request, its headers before the body.
            var headCheck: (@Sendable (HTTPHeaders) -> String?)?
            if let optOut {
                switch await optOut.decide(url) {
                case .refused(let why): optedOut(photo, url: url, why, journal: journal); return nil
                case .proceed(let check): headCheck = check
                }
            }
            do {
                var request = DownloadRequest(url: url, destination: original.downloadTarget,
                                              expectImage: true, addressPolicy: imageAddressPolicy)
                // A small original arrives whole in memory and is handed to the worker unwritten: this
                // task (on Swift's few cooperative threads) only waits.
                request.leavesSmallBodyUnpublished = true
                request.nothingOnDisk = original.new
                request.headCheck = headCheck
                let result = try await engine.download(request)
                fetched.body = result.unpublished
                fetched.downloaded = result.bytes - result.resumedFrom
                count { [downloaded = fetched.downloaded] in $0.bytesDownloaded += downloaded }
                if photo.downloadPing != nil { await reportDownload(of: photo) }
            } catch {
                if isStopping, case .cancelled = error.reason { return nil }  // the partial stays for the next run
                if let why = error.optOut {
                    optedOut(photo, url: url, why, journal: journal)
                    return nil
                }
                fail(photo, url: url, .transfer(error), journal: journal)
                return nil
            }
        }
        // A shard's complete file moves from its staging folder (one still in memory is published
        // straight to its place: it has no partial to keep apart).
        if fetched.body == nil {
            do { try original.publishStaged() } catch {
                fail(photo, url: url, .gallery(error), journal: journal)
                return nil
            }
        }
        return fetched
    }

    /// Step two: the thumbnail sizes and display rendition the journal lacks (or whose files are gone),
    /// made on the worker pool from one decode and journaled there in one write. Returns the thumbnails
    /// made, or nil when the photo ends here (failed, or the run stopping: a downloaded original is kept).
    private func makeRenditions(of photo: Photo, url: String, at original: OriginalPlace, recorded: OriginalFile?,
                                thumbnails: [Int: ThumbnailFile], body: UnpublishedDownload?, inStore: Bool,
                                journal: Journal) async -> Int? {
        let missing = job.thumbnailSizes.filter { size in
            guard let existing = thumbnails[size] else { return true }
            if let wanted = job.thumbnailFormat.fixedExtension,
               PathText.fileExtension(existing.path).lowercased() != wanted { return true }
            return store.size(of: existing.path) == nil || !hasExtraFormats(existing)
        }
        // The display rendition: wanted unless a thumbnail size is the same, or the recorded original is
        // no larger (the page shows the original then); remade like a thumbnail when missing.
        let displaySize = job.pageOptions.displaySize
        var displayMissing = displaySize > 0 && !job.thumbnailSizes.contains(displaySize)
        if displayMissing, let recorded, let width = recorded.width, let height = recorded.height,
           max(width, height) <= displaySize { displayMissing = false }
        if displayMissing, let existing = thumbnails[displaySize],
           job.thumbnailFormat.fixedExtension.map({ PathText.fileExtension(existing.path).lowercased() == $0 }) ?? true,
           store.size(of: existing.path) != nil, hasExtraFormats(existing) { displayMissing = false }
        // Stopping: no new decode work. A finished original stays on disk unjournaled (one still in
        // memory is written now); the next run finds it complete and only makes its thumbnails.
        func keepOriginal() -> Int? {
            original.keep(body)
            return nil
        }
        if isStopping || Task.isCancelled { return keepOriginal() }
        // An original journaled by an older version has no hashes (or no grey reduction): they are
        // computed once, here.
        let unhashed = recorded != nil && (recorded?.phash == nil || recorded?.grey == nil)
        guard recorded == nil || !missing.isEmpty || unhashed || displayMissing else { return 0 }
        // A store that keeps no local copy of its originals fetches this one back for the work (one the
        // journal records, or one it held before the journal said so).
        if recorded != nil || inStore {
            do {
                guard try await store.materialize(original.path) else {
                    fail(photo, url: url, .gallery(.system(call: "open", path: store.location + "/" + original.path, errno: ENOENT)),
                         journal: journal)
                    return nil
                }
            } catch {
                fail(photo, url: url, .gallery(error), journal: journal)
                return nil
            }
        }
        let work = ThumbnailWork(original: original,
                                 sizes: missing, knownSHA256: recorded?.sha256,
                                 thumbnailer: Thumbnailer(jpegQuality: job.jpegQuality, format: job.thumbnailFormat,
                                                          webpQuality: job.webpQuality, avifQuality: job.avifQuality,
                                                          avifSpeed: job.avifSpeed, decodeOptions: job.decodeOptions),
                                 cache: cache, keepLocation: job.pageOptions.showLocation,
                                 fingerprintSize: job.thumbnailSizes.max(),
                                 displaySize: displayMissing ? displaySize : nil,
                                 extraFormats: job.extraThumbnailFormats, body: body, store: store,
                                 publishesOriginal: recorded == nil)
        let id = photo.id, journalOriginal = recorded == nil || unhashed
        do {
            // The worker journals what it made too (the display rendition among the thumbnails), in one write.
            let output = try await pool.run { () throws(PipelineError) in
                let output = try work.run()
                var records = (output.thumbnails + (output.display.map { [$0] } ?? [])).map { JournalRecord.thumbnail(id: id, file: $0) }
                if journalOriginal { records.insert(.original(id: id, file: output.original), at: 0) }
                do throws(GalleryError) { try journal.append(contentsOf: records) } catch { throw .gallery(error) }
                return output
            }
            count { $0.thumbnailsMade += output.thumbnails.count }
            return output.thumbnails.count
        } catch let error as PipelineError {
            fail(photo, url: url, error, journal: journal)
        } catch let error as GalleryError {
            fail(photo, url: url, .gallery(error), journal: journal)
        } catch {
            return keepOriginal()  // the pool stopped before taking the work: the run is ending
        }
        return nil
    }

    /// Whether every extra encoding (``GalleryJob/extraThumbnailFormats``) of a recorded thumbnail is on disk.
    private func hasExtraFormats(_ thumbnail: ThumbnailFile) -> Bool {
        job.extraThumbnailFormats.allSatisfy { format in
            store.size(of: PictureSources.path(thumbnail.path, as: format.resolved(hasAlpha: false))) != nil
        }
    }

    /// A photo its site opted out of AI use: journaled as a failure whose reason is the signal (so the
    /// manifest says `opted_out`), counted apart from failures; nothing of its body was read.
    private func optedOut(_ photo: Photo, url: String, _ why: String, journal: Journal) {
        try? journal.append(.failed(id: photo.id, reason: why))
        count { $0.photosOptedOut += 1 }
        emit(.photoFailed(id: photo.id, name: photo.name, url: url, reason: why))
    }

    private func fail(_ photo: Photo, url: String, _ error: PipelineError, journal: Journal) {
        try? journal.append(.failed(id: photo.id, reason: error.description))
        count { $0.photosFailed += 1 }
        emit(.photoFailed(id: photo.id, name: photo.name, url: url, reason: error.description))
    }
}
