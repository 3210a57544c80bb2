import GalleryImaging

/// A journal line read by hand (``JSONScan``) when it is in the form ``JournalRecord/json()`` writes, the
/// common case; nil for anything else, which the caller hands to `JSONDecoder` (see
/// ``JournalRecord/decodeLine(_:with:)``). What this reads is what the decoder reads: the same members,
/// required and optional, the same checks on a pHash and a grey reduction; a record it answers for is
/// one the decoder gives too (JournalRecordScanTests compares them).
extension JournalRecord {
    init?(scanning line: UnsafeBufferPointer<UInt8>) {
        var scan = JSONScan(line)
        guard let record = Self.scanRecord(&scan), scan.isAtEnd else { return nil }
        self = record
    }

    private static let keys: [StaticString] = ["file", "id", "photo", "reason", "type"]

    private static func scanRecord(_ scan: inout JSONScan) -> JournalRecord? {
        guard scan.beginObject() else { return nil }
        var (seen, id, reason, type): (UInt32, Int?, String?, String?) = (0, nil, nil, nil)
        var file: FileFields?
        var photo: PhotoMetadata?
        while true {
            switch scan.nextKey(keys, seen: &seen) {
            case .key(0): guard let value = FileFields(&scan) else { return nil }; file = value
            case .key(1): guard let value = scan.int() else { return nil }; id = value
            case .key(2): guard let value = PhotoMetadata(scanning: &scan) else { return nil }; photo = value
            case .key(3): guard let value = scan.string() else { return nil }; reason = value
            case .key(4): guard let value = scan.string() else { return nil }; type = value
            case .end:
                // Only the members the type reads: an extra one is left to the decoder, which ignores it.
                switch type {
                case "seen" where seen == 1 << 2 | 1 << 4: return photo.map { .seen($0) }
                case "original" where seen == 1 << 0 | 1 << 1 | 1 << 4:
                    return file?.original.map { .original(id: id!, file: $0) }
                case "thumbnail" where seen == 1 << 0 | 1 << 1 | 1 << 4:
                    return file?.thumbnail.map { .thumbnail(id: id!, file: $0) }
                case "failed" where seen == 1 << 1 | 1 << 3 | 1 << 4: return .failed(id: id!, reason: reason!)
                default: return nil
                }
            default: return nil
            }
        }
    }

    /// The members of an original's or a thumbnail's `file`, read before `type` says which it is.
    private struct FileFields {
        static let keys: [StaticString] = ["bytes", "exif", "grey", "height", "path", "phash", "sha256", "size",
                                           "thumbhash", "width"]
        var seen: UInt32 = 0
        var bytes: Int?, size: Int?, width: Int?, height: Int?
        var path: String?, sha256: String?, thumbhash: String?
        var exif: ExifMetadata?, phash: PerceptualHash?, grey: GreyReduction?

        init?(_ scan: inout JSONScan) {
            guard scan.beginObject() else { return nil }
            while true {
                switch scan.nextKey(Self.keys, seen: &seen) {
                case .key(0): guard let value = scan.int() else { return nil }; bytes = value
                case .key(1): guard let value = ExifMetadata(scanning: &scan) else { return nil }; exif = value
                case .key(2): guard let value = scan.string().flatMap(GreyReduction.init(base64:)) else { return nil }; grey = value
                case .key(3): guard let value = scan.int() else { return nil }; height = value
                case .key(4): guard let value = scan.string() else { return nil }; path = value
                case .key(5): guard let value = scan.string().flatMap(PerceptualHash.init(hex:)) else { return nil }; phash = value
                case .key(6): guard let value = scan.string() else { return nil }; sha256 = value
                case .key(7): guard let value = scan.int() else { return nil }; size = value
                case .key(8): guard let value = scan.string() else { return nil }; thumbhash = value
                case .key(9): guard let value = scan.int() else { return nil }; width = value
                case .end: return
                default: return nil
                }
            }
        }

        /// As an original: `path`, `sha256` and `bytes` present, no thumbnail's `size`.
        var original: OriginalFile? {
            guard let path, let sha256, let bytes, size == nil else { return nil }
            return OriginalFile(path: path, sha256: sha256, bytes: bytes, width: width, height: height, exif: exif,
                                phash: phash, thumbhash: thumbhash, grey: grey)
        }

        /// As a thumbnail: `size` and `path` present, none of an original's members.
        var thumbnail: ThumbnailFile? {
            guard let size, let path, bytes == nil, sha256 == nil, exif == nil, phash == nil, thumbhash == nil,
                  grey == nil else { return nil }
            return ThumbnailFile(size: size, path: path, width: width, height: height)
        }
    }
}

extension PhotoMetadata {
    private static let keys: [StaticString] = ["credit", "description", "height", "id", "name", "page", "photographer",
                                               "rating", "source_id", "source_url", "width"]

    /// Reads the object ``write(into:)`` writes; nil for anything else.
    init?(scanning scan: inout JSONScan) {
        guard scan.beginObject() else { return nil }
        var seen: UInt32 = 0
        var (id, name): (Int?, String?) = (nil, nil)
        var metadata = PhotoMetadata(id: 0, name: "")
        while true {
            switch scan.nextKey(Self.keys, seen: &seen) {
            case .key(0): guard let value = PhotoCredit(scanning: &scan) else { return nil }; metadata.credit = value
            case .key(1): guard let value = scan.string() else { return nil }; metadata.description = value
            case .key(2): guard let value = scan.int() else { return nil }; metadata.height = value
            case .key(3): guard let value = scan.int() else { return nil }; id = value
            case .key(4): guard let value = scan.string() else { return nil }; name = value
            case .key(5): guard let value = scan.int() else { return nil }; metadata.page = value
            case .key(6): guard let value = scan.string() else { return nil }; metadata.photographer = value
            case .key(7): guard let value = scan.double() else { return nil }; metadata.rating = value
            case .key(8): guard let value = scan.string() else { return nil }; metadata.sourceID = value
            case .key(9): guard let value = scan.string() else { return nil }; metadata.sourceURL = value
            case .key(10): guard let value = scan.int() else { return nil }; metadata.width = value
            case .end:
                guard let id, let name else { return nil }
                (metadata.id, metadata.name) = (id, name)
                self = metadata
                return
            default: return nil
            }
        }
    }
}

extension PhotoCredit {
    private static let keys: [StaticString] = ["author", "author_url", "licence", "licence_url", "page_url", "service",
                                               "service_url"]

    /// Reads the object ``write(into:)`` writes; nil for anything else.
    init?(scanning scan: inout JSONScan) {
        guard scan.beginObject() else { return nil }
        var seen: UInt32 = 0
        var credit = PhotoCredit()
        while true {
            let member = scan.nextKey(Self.keys, seen: &seen)
            guard case .key(let index) = member else {
                guard member == .end else { return nil }
                self = credit
                return
            }
            guard let value = scan.string() else { return nil }
            switch index {
            case 0: credit.author = value
            case 1: credit.authorURL = value
            case 2: credit.licence = value
            case 3: credit.licenceURL = value
            case 4: credit.pageURL = value
            case 5: credit.service = value
            default: credit.serviceURL = value
            }
        }
    }
}

extension ExifMetadata {
    private static let keys: [StaticString] = ["altitude", "date_taken", "exposure_time", "f_number", "focal_length",
                                               "iso", "latitude", "lens", "longitude", "make", "model"]

    /// Reads the object ``write(into:)`` writes; nil for anything else.
    init?(scanning scan: inout JSONScan) {
        guard scan.beginObject() else { return nil }
        var seen: UInt32 = 0
        var exif = ExifMetadata()
        while true {
            switch scan.nextKey(Self.keys, seen: &seen) {
            case .key(0): guard let value = scan.double() else { return nil }; exif.altitude = value
            case .key(1): guard let value = scan.string() else { return nil }; exif.dateTaken = value
            case .key(2): guard let value = scan.double() else { return nil }; exif.exposureTime = value
            case .key(3): guard let value = scan.double() else { return nil }; exif.fNumber = value
            case .key(4): guard let value = scan.double() else { return nil }; exif.focalLength = value
            case .key(5): guard let value = scan.int() else { return nil }; exif.iso = value
            case .key(6): guard let value = scan.double() else { return nil }; exif.latitude = value
            case .key(7): guard let value = scan.string() else { return nil }; exif.lens = value
            case .key(8): guard let value = scan.double() else { return nil }; exif.longitude = value
            case .key(9): guard let value = scan.string() else { return nil }; exif.make = value
            case .key(10): guard let value = scan.string() else { return nil }; exif.model = value
            case .end:
                self = exif
                return
            default: return nil
            }
        }
    }
}
