import GalleryRunner

extension GalleryStores {
    /// Where a gallery's uploads wait, under a store's work folder.
    static let gallerySpool = ".fetch-gallery/store/spool"

    /// The gallery store at `location`: a ``LocalFolderStore`` for a folder, else an ``ObjectGalleryStore``
    /// over its kind's objects (``GalleryStoreKind/openObjects(_:options:engine:spool:)``), its requests on
    /// `engine` or on an engine of its own (closed by ``GalleryStore/close()``) when nil. A malformed
    /// location, unusable settings, missing keys or a work folder that cannot be made are
    /// ``GalleryStoreError/settings(_:)``.
    public static func open(_ location: String, options: GalleryStoreOptions = GalleryStoreOptions(),
                            engine: TransferEngine? = nil) throws(GalleryStoreError) -> any GalleryStore {
        guard let kind = kind(of: location) else { return LocalFolderStore(folder: location) }
        if let problem = kind.problem(with: options) { throw .settings(problem) }
        let objects = try kind.openObjects(location, options: options, engine: engine, spool: gallerySpool)
        do throws(GalleryError) {
            return try ObjectGalleryStore(objects: objects.store, workFolder: objects.workFolder, inFlight: options.uploads,
                                          checkpointInterval: options.checkpointInterval, ownedEngine: objects.ownedEngine)
        } catch {
            objects.ownedEngine?.shutdown()
            throw .settings("cannot use the work folder \(objects.workFolder): \(error)")
        }
    }
}
