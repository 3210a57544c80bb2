import Foundation

extension ObjectGalleryStore {
    /// Prepares a merge into the store: checks the bucket answers (a listing of at most one key under
    /// `shards/`), fetches what `merge` reads into the work folder, every shard's
    /// part and summary (the keys under `shards/` only, never a listing of the whole bucket), and the
    /// earlier merge's key list (``MergeKeyList``), and starts this merge's list. Local parts from an
    /// earlier merge are dropped first, so a shard that is running again is not taken as done.
    /// Returns the shards (`K-of-N`) whose journal is in the store: begun, whether or not they finished.
    ///
    /// Each part is streamed to a local copy (``ObjectStore/get(_:to:)``: memory stays flat, and a
    /// download cut short never appears under the part's name), not read from the store as the merge
    /// goes: the merge reads every part up to five times (the duplicate grouping's passes, then the
    /// writing one), and a local copy is downloaded once and cannot change between the passes.
    public func fetchParts() async throws(GalleryStoreError) -> Set<String> {
        do throws(S3Error) { return try await fetchPartsFromBucket() } catch { throw .unavailable(error.description) }
    }

    private func fetchPartsFromBucket() async throws(S3Error) -> Set<String> {
        let local = folder + "/" + ShardLayout.partsFolder
        for name in POSIX.names(in: local) ?? [] { POSIX.remove(local + "/" + name) }
        do { try POSIX.makeDirectories(local) } catch { throw .file(path: local, reason: error.description) }
        let prefix = ShardLayout.partsFolder + "/"
        try await objects.check(prefix: prefix)
        let parts = try await objects.list(prefix: prefix).compactMap { object -> (key: String, name: String)? in
            let name = String(object.key.dropFirst(prefix.count))
            guard !name.isEmpty, !name.contains("/"),
                  name.hasSuffix(ShardLayout.photosSuffix) || name.hasSuffix(ShardLayout.summarySuffix) else { return nil }
            return (object.key, name)
        }
        // A few at once; a key deleted since the listing is skipped (its shard is running again).
        let (objects, limit) = (objects, min(8, inFlight))
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, part) in parts.enumerated() {
                    if index >= limit { try await group.next() }
                    group.addTask { _ = try await objects.get(part.key, to: local + "/" + part.name) }
                }
                try await group.waitForAll()
            }
        } catch let error as S3Error { throw error } catch { throw .file(path: local, reason: "\(error)") }
        let journals = try await objects.list(prefix: ".fetch-gallery/shards/")
        var started: Set<String> = []
        for object in journals where object.key.hasSuffix("/journal.jsonl") {
            let pieces = object.key.split(separator: "/")
            if pieces.count >= 2 { started.insert(String(pieces[pieces.count - 2])) }
        }
        try await beginKeyList()
        return started
    }

    /// Fetches the earlier merge's key list (none for a first merge) and starts this merge's.
    private func beginKeyList() async throws(S3Error) {
        let earlier = folder + "/" + MergeKeyList.earlierPath
        POSIX.remove(earlier)
        _ = try await objects.get(MergeKeyList.storePath, to: earlier)
        do throws(GalleryError) {
            let keys = try MergeKeyList(folder: folder)
            merging.withLock { $0 = keys }
        } catch { throw .file(path: folder + "/" + MergeKeyList.currentPath, reason: error.description) }
    }

    /// Ends a merge begun by ``fetchParts()``, once the merge has handed over every file: waits for
    /// the pages and the manifest, then `index.html` (see ``flush()``); deletes from the store the
    /// pages the earlier merge wrote and this one did not, now that no page links to them; then
    /// uploads this merge's key list for the next merge. A merge that fails before this point leaves
    /// the earlier list in the store, so the next one still deletes what is stale. Returns how many
    /// keys were deleted. A file that could not be stored or deleted is ``GalleryStoreError/failed(_:)``.
    @discardableResult
    public func finishMerge() async throws(GalleryStoreError) -> Int {
        do throws(GalleryError) { return try await finishKeyList() } catch { throw .failed(error.description) }
    }

    private func finishKeyList() async throws(GalleryError) -> Int {
        try await flush()
        guard let keys = merging.withLock({ m in defer { m = nil }; return m }) else { return 0 }
        // Only the merge's own kind of file: a damaged list never deletes a photo or a part.
        var stale = 0
        try keys.finish { path in
            guard GalleryFileKind(path: path) == .page, !path.hasPrefix("/"), !path.contains("..") else { return }
            removeFromStore(path)
            stale += 1
        }
        try await wait()
        do {
            _ = try await objects.put(file: folder + "/" + MergeKeyList.currentPath, as: MergeKeyList.storePath,
                                      ObjectPutOptions(contentType: "text/plain; charset=utf-8", cacheControl: "no-cache"))
        } catch { throw .store(location: location, reason: error.description) }
        return stale
    }
}
