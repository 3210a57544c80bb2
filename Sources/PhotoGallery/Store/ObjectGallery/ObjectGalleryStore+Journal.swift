import Foundation
import GallerySystem

extension ObjectGalleryStore {
    // MARK: the run's bookkeeping

    /// Checks the bucket answers to the keys (before any photo is downloaded), fetches the journal
    /// `journalPath` and the list of stored files when the work folder has no journal (a run on
    /// another machine resumes), and queues the photo files the work folder holds that the store has
    /// not (a run killed before they were uploaded). Wrong keys, a missing bucket or a store that does
    /// not answer are ``GalleryStoreError/unavailable(_:)``, with the client's sentence.
    public func prepare(journal journalPath: String) async throws(GalleryStoreError) {
        do throws(S3Error) { try await fetchJournal(journalPath) } catch { throw .unavailable(error.description) }
        let known = publishedFiles
        for root in ["photos", "thumbs"] {
            for path in Self.files(under: root, in: folder) where known[path] == nil { publish(path) }
        }
    }

    /// Checks that the bucket answers to the keys (`plan`, before the listing is read).
    public func check() async throws(GalleryStoreError) {
        do throws(ObjectStoreError) { try await objects.check(prefix: "") } catch { throw .unavailable(error.description) }
    }

    /// Checks the bucket; fetches the journal and the list of stored files into a work folder that has no journal.
    private func fetchJournal(_ journalPath: String) async throws(S3Error) {
        try await objects.check(prefix: "")
        if POSIX.fileSize(folder + "/" + journalPath) == nil {
            for path in [Self.publishedPath, journalPath] {
                let remote = path == Self.publishedPath ? Self.publishedKeyPath(journal: journalPath) : path
                guard let data = try await objects.get(remote) else { continue }
                do {
                    try POSIX.makeDirectories(PathText.directory(folder + "/" + path))
                    if path == Self.publishedPath {
                        let fd = log.withLock { $0 }
                        try POSIX.writeAll(fd, data, path: folder + "/" + path)
                    } else {
                        try AtomicFile.write(data, to: folder + "/" + path)
                    }
                } catch { throw .file(path: folder + "/" + path, reason: error.description) }
            }
            _ = loadPublished()
        }
    }

    /// Uploads the journal at `journalPath` once every file handed over before this call is stored,
    /// with the list of stored files before it (a journal never names a file the store lacks).
    public func checkpoint(journal journalPath: String) async throws(GalleryError) {
        let snapshot = folder + "/.fetch-gallery/store/journal.snapshot"
        // The journal as it is now: the files of every record in it were handed over before this point.
        if let bytes = try POSIX.readAll(folder + "/" + journalPath) { try AtomicFile.write(bytes, to: snapshot) }
        else { return }
        try await flush()
        let listing = folder + "/.fetch-gallery/store/published.snapshot"
        if let bytes = try POSIX.readAll(folder + "/" + Self.publishedPath) { try AtomicFile.write(bytes, to: listing) }
        try await upload(listing, as: Self.publishedKeyPath(journal: journalPath))
        try await upload(snapshot, as: journalPath)
    }

    private func upload(_ local: String, as path: String) async throws(GalleryError) {
        do {
            _ = try await objects.put(file: local, as: path, ObjectPutOptions(contentType: GalleryFileKind.contentType(of: path),
                                                                              cacheControl: "no-cache"))
        } catch { throw .store(location: location, reason: error.description) }
    }

    /// The regular files under `root` in `folder`, relative to `folder` (temporary files left out).
    static func files(under root: String, in folder: String) -> [String] {
        var found: [String] = []
        var pending = [root]
        while let directory = pending.popLast() {
            for name in POSIX.names(in: folder + "/" + directory) ?? [] where !name.hasPrefix(AtomicFile.temporaryPrefix)
                && !name.hasSuffix(".part") && !name.hasSuffix(".part.meta") && !name.hasSuffix(".tmp") {
                let path = directory + "/" + name
                if POSIX.fileSize(folder + "/" + path) != nil { found.append(path) } else { pending.append(path) }
            }
        }
        return found
    }
}
