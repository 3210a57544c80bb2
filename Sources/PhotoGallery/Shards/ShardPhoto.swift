/// One line of a shard's part of the manifest: everything the merge needs to write a photo's
/// entry in `gallery.json`, its card in the index and its page, with no other file read.
///
/// `page` orders the merge: each listing page (for a URL list, each line, as page line + 1)
/// belongs to exactly one shard, so merging the parts by page gives the listing order of one run.
public struct ShardPhoto: Sendable, Hashable, Codable {
    /// The listing page (from 1) the photo came from; for a URL list, its line number from 1.
    public var page: Int
    /// What the source said about the photo.
    public var metadata: PhotoMetadata
    /// The complete original, once downloaded.
    public var original: OriginalFile?
    /// Thumbnails, in increasing size.
    public var thumbnails: [ThumbnailFile]
    /// Why the photo failed last, if it did.
    public var failure: String?
    /// The comments shown on its page.
    public var comments: [Comment]?

    /// The line for `entry` of a shard's state, with its comments.
    public init(_ entry: GalleryState.Entry, comments: [Comment]?) {
        page = entry.metadata.page ?? 0
        metadata = entry.metadata
        original = entry.original
        thumbnails = entry.thumbnails.keys.sorted().map { entry.thumbnails[$0]! }
        failure = entry.failure
        self.comments = comments?.isEmpty == false ? comments : nil
    }

    /// The photo as a state entry, for the gallery writer.
    public var entry: GalleryState.Entry {
        var entry = GalleryState.Entry(metadata: metadata, original: original, failure: failure)
        for thumbnail in thumbnails { entry.thumbnails[thumbnail.size] = thumbnail }
        return entry
    }
}
