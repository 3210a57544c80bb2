// The object store (the ObjectStore protocol, its folder and S3 kinds, the S3 client) is part of the
// stores' API, so a user of GalleryKit (and the CLI) needs no second import.
@_exported import GalleryObjectStore
