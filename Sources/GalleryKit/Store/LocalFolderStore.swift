/// The gallery as a folder on a local (or shared POSIX) file system: today's layout. Files are made in
/// place (staged, then given their name by `linkat(2)` or `rename(2)`, `fsync`ed with `--durable`), so
/// publishing one is already done; the store only answers from the folder.
public struct LocalFolderStore: GalleryStore {
    public let folder: String
    public var location: String { folder }

    /// The store of the gallery folder `folder`.
    public init(folder: String) { self.folder = folder }

    public func size(of path: String) -> Int64? { POSIX.fileSize(folder + "/" + path) }
    public func publish(_ path: String) {}
    public func remove(_ path: String) { POSIX.remove(folder + "/" + path) }
    public func flush() async throws(GalleryError) {}
    public func materialize(_ path: String) async throws(GalleryError) -> Bool { POSIX.fileSize(folder + "/" + path) != nil }
}
