@_exported import GalleryImaging
@_exported import GalleryTransfer
