// `import GalleryKit` is the whole library: `ImagePipeline` (this module), the gallery, the dataset, the
// runner both run on, and the parts under them (imaging, transfer, the object store, the dataset formats),
// so a user (and the CLI) needs no second import.
@_exported import DatasetFormats
@_exported import GalleryDataset
@_exported import GalleryImaging
@_exported import GalleryObjectStore
@_exported import GalleryRunner
@_exported import GalleryTransfer
@_exported import PhotoGallery
import GallerySync

/// The decode/scale thread pool, in GallerySync with the other shared machinery; named here so that
/// `import GalleryKit` keeps offering it.
public typealias WorkerPool = GallerySync.WorkerPool
