@_exported import GalleryImaging
@_exported import GalleryTransfer
import GallerySync

/// The decode/scale thread pool, in GallerySync with the other shared machinery; named here so that
/// `import GalleryKit` keeps offering it.
public typealias WorkerPool = GallerySync.WorkerPool
