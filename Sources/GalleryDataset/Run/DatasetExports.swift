// The format writers' types (DatasetOutputFormat, LocalFolderSink, DatasetSink) are part of the dataset
// stage's API, so a user of GalleryKit (and the CLI) needs no second import.
@_exported import DatasetFormats
