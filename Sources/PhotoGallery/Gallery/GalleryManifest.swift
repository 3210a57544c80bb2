import Foundation

/// `gallery.json`: the machine-readable summary of a gallery folder.
///
/// Built from a `GalleryState`, photos in first-seen order, keys sorted, so the same state
/// always gives the same bytes (apart from `generated`).
public struct GalleryManifest: Sendable, Hashable, Decodable {
    /// Whether a photo made it into the gallery.
    public enum Status: String, Sendable, Hashable, Decodable {
        /// In the gallery, with its original and thumbnails.
        case ok
        /// Not in the gallery; `error` says why.
        case failed
        /// Not downloaded: its site opted it out of AI use (`--respect-opt-out`); `error` names the
        /// signal and where it was found (`opted_out: X-Robots-Tag noai`).
        case optedOut = "opted_out"
    }

    /// One photo of the manifest.
    public struct Photo: Sendable, Hashable, Decodable {
        /// The photo's id at its source.
        public var id: Int
        /// The photo's title.
        public var name: String
        /// The photographer's name, when the source gave one.
        public var photographer: String?
        /// The source's rating, when it gave one.
        public var rating: Double?
        /// The URL the original was downloaded from.
        public var sourceURL: String?
        /// Path of the original, relative to the gallery root.
        public var original: String?
        /// Lower-case hex SHA-256 of the original, to verify it byte for byte.
        public var sha256: String?
        /// Size of the original in bytes.
        public var bytes: Int?
        /// Upright width of the original in pixels.
        public var width: Int?
        /// Upright height of the original in pixels.
        public var height: Int?
        /// Thumbnail paths keyed by size (as a string: JSON keys are strings).
        public var thumbnails: [String: String]
        /// Whether the photo is in the gallery.
        public var status: Status
        /// Why the photo failed; only when `status` is `failed` or `opted_out`.
        public var error: String?
        /// The id as the source spells it, when it is not `id` (an Openverse UUID, an Unsplash id).
        public var sourceID: String?
        /// Author, author link, licence name and link, and the photo's page at its source.
        public var credit: PhotoCredit?
        /// What the original's EXIF says about the shot, when it has any; the GPS position only with
        /// `showLocation`.
        public var exif: ExifMetadata?
        /// The original's 64-bit perceptual hash, 16 hex digits (as Python's `imagehash` prints it).
        public var phash: String?
        /// The original's ThumbHash in base64 (the index's placeholder).
        public var thumbhash: String?
        /// The photo the gallery shows instead of this one, a copy of it (`--duplicates`); the file stays.
        public var duplicateOf: Int?
        /// Hamming distance between the two photos' pHashes (0 for the same bytes).
        public var distance: Int?
        /// What matched this photo to ``duplicateOf``: `sha256` (same bytes) or `phash` (a pHash within
        /// the threshold, then checked on the two grey reductions: ``alignment``).
        public var matchedBy: String?
        /// For a `phash` match, what the check measured against ``duplicateOf``: the scale and offset
        /// that lay this photo's frame on the shown one's, the overlap's share of the larger frame, how
        /// far the frames' edges part, and the worst cell's grey-level difference.
        public var alignment: CopyCheck?
        /// For a shown photo, the ids of its copies that the gallery does not show.
        public var copies: [Int]?

        /// The manifest's view of one entry of a gallery state, without the EXIF GPS position.
        public init(entry: GalleryState.Entry) {
            self.init(entry: entry, showLocation: false)
        }

        /// The manifest's view of one entry of a gallery state; the EXIF GPS position is kept only
        /// when `showLocation` (`--show-location`).
        public init(entry: GalleryState.Entry, showLocation: Bool) {
            let meta = entry.metadata
            let failure = entry.failure ?? (entry.original == nil ? GalleryManifest.incompleteReason : nil)
            self.init(
                id: meta.id, name: meta.name, photographer: meta.photographer, rating: meta.rating,
                sourceURL: meta.sourceURL, original: entry.original?.path, sha256: entry.original?.sha256,
                bytes: entry.original?.bytes, width: entry.original?.width ?? meta.width,
                height: entry.original?.height ?? meta.height,
                thumbnails: Dictionary(uniqueKeysWithValues: entry.thumbnails.map { (String($0.key), $0.value.path) }),
                status: failure == nil ? .ok : entry.isOptedOut ? .optedOut : .failed, error: failure)
            sourceID = meta.sourceID
            credit = meta.credit
            exif = showLocation ? entry.original?.exif : entry.original?.exif?.withoutLocation
            phash = entry.original?.phash?.hex
            thumbhash = entry.original?.thumbhash
        }

        /// Records the photo's place in a group of copies.
        mutating func group(_ membership: DuplicateGrouping.Membership) {
            if membership.shown == id {
                copies = membership.members.filter { $0 != id }
            } else {
                duplicateOf = membership.shown
                distance = membership.distance
                matchedBy = membership.hash
                alignment = membership.check
            }
        }

        /// A photo of the manifest, field by field.
        public init(id: Int, name: String, photographer: String?, rating: Double?, sourceURL: String?, original: String?,
                    sha256: String?, bytes: Int?, width: Int?, height: Int?, thumbnails: [String: String],
                    status: Status, error: String?, exif: ExifMetadata? = nil) {
            self.id = id
            self.name = name
            self.photographer = photographer
            self.rating = rating
            self.sourceURL = sourceURL
            self.original = original
            self.sha256 = sha256
            self.bytes = bytes
            self.width = width
            self.height = height
            self.thumbnails = thumbnails
            self.status = status
            self.error = error
            self.exif = exif
        }

        enum CodingKeys: String, CodingKey {
            case id, name, photographer, rating, original, sha256, bytes, width, height, thumbnails, status, error, credit, exif
            case phash, thumbhash, distance, copies, alignment
            case duplicateOf = "duplicate_of"
            case matchedBy = "matched_by"
            case sourceURL = "source_url"
            case sourceID = "source_id"
        }
    }

    /// When the manifest was written, ISO 8601 in UTC.
    public var generated: String
    /// What the photos came from: the API base URL or the URL list's path.
    public var source: String
    /// Every photo seen, in first-seen order.
    public var photos: [Photo]

    /// The reason recorded for a photo that was seen but never finished and never failed
    /// (the run was interrupted or the photo is still pending).
    public static let incompleteReason = "incomplete: the original was not downloaded"

    /// The manifest of `state`, for photos from `source`, stamped with `generated`.
    public init(state: GalleryState, source: String, generated: Date) {
        self.generated = generated.formatted(.iso8601)
        self.source = source
        photos = state.orderedEntries.map(Photo.init(entry:))
    }

    /// The manifest as pretty-printed JSON with sorted keys: the bytes a run writes to `gallery.json`
    /// (GalleryManifest+JSON.swift writes them; the type is read with `JSONDecoder`).
    public func encoded() throws(GalleryError) -> Data {
        var bytes = Self.opening(generated: generated)
        for (index, photo) in photos.enumerated() {
            bytes += Self.separator(before: index)
            bytes += try photo.element()
        }
        bytes += Self.closing(source: source, isEmpty: photos.isEmpty)
        return Data(bytes)
    }
}
