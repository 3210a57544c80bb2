/// The gallery as a folder on a local (or shared POSIX) file system: today's layout. Files are made in
/// place (staged, then given their name by `linkat(2)` or `rename(2)`, `fsync`ed with `--durable`), so
/// publishing one is already done; the store only answers from the folder.
public struct LocalFolderStore: GalleryStore {
    public let folder: String
    public var location: String { folder }

    /// The store of the gallery folder `folder`.
    public init(folder: String) { self.folder = folder }

    public func size(of path: String) -> Int64? { POSIX.fileSize(folder + "/" + path) }
    public var holdsOnlyTheFolder: Bool { true }
    public func publish(_ path: String) {}
    public func remove(_ path: String) { POSIX.remove(folder + "/" + path) }
    public func flush() async throws(GalleryError) {}
    public func materialize(_ path: String) async throws(GalleryError) -> Bool { POSIX.fileSize(folder + "/" + path) != nil }

    /// The journal stays in the folder: nothing to copy while the run goes on.
    public var checkpointInterval: Duration? { nil }
    public func checkpoint(journal path: String) async throws(GalleryError) {}

    // The lifecycle of a folder: the files are made where they belong, so there is nothing to fetch,
    // check or store, and the plan and the shards' parts are read where they are.
    public func prepare(journal path: String) async throws(GalleryStoreError) {}
    public func check() async throws(GalleryStoreError) {}
    public var planLocation: String { PlanFile.path(in: folder) }
    public func publishPlan() async throws(GalleryStoreError) {}
    public func fetchPlan() async throws(GalleryStoreError) -> String { PlanFile.path(in: folder) }
    public func fetchParts() async throws(GalleryStoreError) -> Set<String> { [] }
    public func finishMerge() async throws(GalleryStoreError) -> Int { 0 }
    public var activity: String? { nil }
    public func close() {}
}
