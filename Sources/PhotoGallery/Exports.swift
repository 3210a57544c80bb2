// The gallery's API is made of the parts' types (a `TransferEngine`, an `ObjectStore`, a `Bitmap`, a
// `GalleryOutcome`), so a user of the gallery needs no second import.
@_exported import GalleryImaging
@_exported import GalleryObjectStore
@_exported import GalleryRunner
@_exported import GalleryTransfer
