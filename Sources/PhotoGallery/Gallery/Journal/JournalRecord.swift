/// What the gallery needs to know about a photo, recorded once when the photo is seen.
public struct PhotoMetadata: Sendable, Hashable, Decodable {
    /// The photo's id at its source.
    public var id: Int
    /// The photo's title.
    public var name: String
    /// The photographer's name, when given.
    public var photographer: String?
    /// The source's rating, when given.
    public var rating: Double?
    /// The source's description text, when given.
    public var description: String?
    /// The http(s) URL the original is downloaded from.
    public var sourceURL: String?
    /// Pixel size as listed by the source; the decoded original's size wins when known.
    public var width: Int?
    /// Pixel height as listed by the source.
    public var height: Int?
    /// The listing page (from 1) the photo was selected from; for a URL list, its line number
    /// (from 1). Orders the photos when shards' parts are merged; nil in journals of older versions.
    public var page: Int?
    /// The id as the source spells it, when it is not `id` itself (see `PhotoID`).
    public var sourceID: String?
    /// Author, licence and links at the source; nil in journals of older versions.
    public var credit: PhotoCredit?

    /// Creates the metadata of one photo.
    public init(
        id: Int, name: String, photographer: String? = nil, rating: Double? = nil, description: String? = nil,
        sourceURL: String? = nil, width: Int? = nil, height: Int? = nil, page: Int? = nil,
        sourceID: String? = nil, credit: PhotoCredit? = nil
    ) {
        self.id = id
        self.name = name
        self.photographer = photographer
        self.rating = rating
        self.description = description
        self.sourceURL = sourceURL
        self.width = width
        self.height = height
        self.page = page
        self.sourceID = sourceID
        self.credit = credit
    }

    enum CodingKeys: String, CodingKey {
        case id, name, photographer, rating, description, width, height, page, credit
        case sourceURL = "source_url"
        case sourceID = "source_id"
    }
}

/// A downloaded original on disk.
public struct OriginalFile: Sendable, Hashable, Decodable {
    /// Path relative to the gallery root.
    public var path: String
    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String
    /// Size of the file in bytes.
    public var bytes: Int
    /// Upright width in pixels, once decoded.
    public var width: Int?
    /// Upright height in pixels, once decoded.
    public var height: Int?
    /// What the file's EXIF says about the shot, when it has any. The GPS position is only kept when
    /// the job asked for it (``GalleryJob/showLocation``).
    public var exif: ExifMetadata?
    /// The 64-bit perceptual hash of the upright photo, which finds its near duplicates; nil in
    /// journals of older versions (a later run computes it once).
    public var phash: PerceptualHash?
    /// The photo's ThumbHash in base64: the index's placeholder before the thumbnail loads.
    public var thumbhash: String?
    /// The upright photo squeezed to 24 x 24 grey pixels (base64, 768 characters), which checks a pHash
    /// match before two photos are merged (``CopyCheck``); nil in journals of older versions (a later
    /// run computes it once, with the hashes).
    public var grey: GreyReduction?

    /// Describes an original on disk.
    public init(path: String, sha256: String, bytes: Int, width: Int? = nil, height: Int? = nil, exif: ExifMetadata? = nil,
                phash: PerceptualHash? = nil, thumbhash: String? = nil, grey: GreyReduction? = nil) {
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
        self.width = width
        self.height = height
        self.exif = exif
        self.phash = phash
        self.thumbhash = thumbhash
        self.grey = grey
    }
}

/// A thumbnail on disk.
public struct ThumbnailFile: Sendable, Hashable, Decodable {
    /// The requested size: the thumbnail's longest edge in pixels.
    public var size: Int
    /// Path relative to the gallery root.
    public var path: String
    /// Width of the thumbnail in pixels.
    public var width: Int?
    /// Height of the thumbnail in pixels.
    public var height: Int?

    /// Describes a thumbnail on disk.
    public init(size: Int, path: String, width: Int? = nil, height: Int? = nil) {
        self.size = size
        self.path = path
        self.width = width
        self.height = height
    }
}

/// One line of the journal. Records only ever add facts; replaying them in order rebuilds
/// the run's `GalleryState`.
///
/// On disk, one JSON object per line with sorted keys, for example:
/// ```
/// {"photo":{"id":12345,"name":"Sunset","photographer":"ann","source_url":"http://127.0.0.1/i/12345.jpg"},"type":"seen"}
/// {"file":{"bytes":812345,"path":"originals/12345-sunset.jpg","sha256":"9f86…"},"id":12345,"type":"original"}
/// {"file":{"height":240,"path":"thumbs/320/12345-sunset.jpg","size":320,"width":320},"id":12345,"type":"thumbnail"}
/// {"id":777,"reason":"HTTP 404 for http://127.0.0.1/i/777.jpg","type":"failed"}
/// ```
/// Written by hand (``json()``, in JournalRecord+JSON.swift), read with `JSONDecoder`: one coding each
/// way, for the record and for every photo type inside it.
public enum JournalRecord: Sendable, Hashable, Decodable {
    /// A photo was selected for the gallery. A later `seen` for the same id updates its
    /// metadata but keeps its place in the order.
    case seen(PhotoMetadata)
    /// The original of photo `id` is complete on disk.
    case original(id: Int, file: OriginalFile)
    /// A thumbnail of photo `id` is complete on disk.
    case thumbnail(id: Int, file: ThumbnailFile)
    /// Photo `id` failed; a later `original` or `thumbnail` record clears this.
    case failed(id: Int, reason: String)

    /// The photo this record is about.
    public var photoID: Int {
        switch self {
        case let .seen(metadata): metadata.id
        case let .original(id, _), let .thumbnail(id, _), let .failed(id, _): id
        }
    }

    enum CodingKeys: String, CodingKey { case type, id, photo, file, reason }

    /// Reads a record from its JSON line.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "seen": self = .seen(try c.decode(PhotoMetadata.self, forKey: .photo))
        case "original": self = .original(id: try c.decode(Int.self, forKey: .id), file: try c.decode(OriginalFile.self, forKey: .file))
        case "thumbnail": self = .thumbnail(id: try c.decode(Int.self, forKey: .id), file: try c.decode(ThumbnailFile.self, forKey: .file))
        case "failed": self = .failed(id: try c.decode(Int.self, forKey: .id), reason: try c.decode(String.self, forKey: .reason))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown record type \(other)")
        }
    }
}
