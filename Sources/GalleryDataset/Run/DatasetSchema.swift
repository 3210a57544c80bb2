import DatasetFormats
import GalleryRunner

/// The metadata columns of every shard, in img2dataset's order and Parquet types: the kept input columns,
/// then `key`, `status`, `error_message`, `width`, `height`, `original_width`, `original_height` (int32),
/// `exif` (with `--extract-exif`) and the hash column (unless a `--verify-hash` column already has its name);
/// then ours, when asked: `phash` (unless the `--verify-phash` column is kept under that name), `verified_by`.
struct DatasetSchema: Sendable {
    let columns: [MetadataColumn]
    let keptNames: [String]
    let keptTypes: [DatasetColumnType]
    let extractExif: Bool
    let hash: DatasetHash?
    /// The hash column's index when it is one of the kept columns (`--verify-hash`).
    let keptHashIndex: Int?
    /// The `phash` and `verified_by` columns (``DatasetVerification``).
    let phash: Bool, verifiedBy: Bool
    let keptPHashIndex: Int?

    init(keptNames: [String], keptTypes: [DatasetColumnType], extractExif: Bool, hash: DatasetHash?,
         phash: Bool = false, verifiedBy: Bool = false) {
        self.keptNames = keptNames
        self.phash = phash
        self.verifiedBy = verifiedBy
        keptPHashIndex = phash ? keptNames.firstIndex(of: DatasetVerification.phashColumn) : nil
        self.keptTypes = keptTypes
        self.extractExif = extractExif
        self.hash = hash
        keptHashIndex = hash.flatMap { keptNames.firstIndex(of: $0.rawValue) }
        var list = zip(keptNames, keptTypes).map { MetadataColumn(name: $0, type: $1.metadataType) }
        list.append(MetadataColumn(name: "key", type: .string))
        list.append(MetadataColumn(name: "status", type: .string))
        list.append(MetadataColumn(name: "error_message", type: .string))
        for name in ["width", "height", "original_width", "original_height"] { list.append(MetadataColumn(name: name, type: .int32)) }
        if extractExif { list.append(MetadataColumn(name: "exif", type: .string)) }
        if let hash, keptHashIndex == nil { list.append(MetadataColumn(name: hash.rawValue, type: .string)) }
        if phash, keptPHashIndex == nil { list.append(MetadataColumn(name: DatasetVerification.phashColumn, type: .string)) }
        if verifiedBy { list.append(MetadataColumn(name: DatasetVerification.verifiedByColumn, type: .string)) }
        columns = list
    }

    /// One row's metadata values, in `columns` order.
    func values(row: DatasetRow, key: String, outcome: RowOutcome) -> [MetadataValue] {
        var values: [MetadataValue] = []
        values.reserveCapacity(columns.count)
        for (i, value) in row.values.enumerated() {
            if i == keptHashIndex { values.append(outcome.hash.map { .string($0) } ?? .null); continue }
            if i == keptPHashIndex { values.append(outcome.phash.map { .string($0) } ?? .null); continue }
            values.append(value.metadata(as: keptTypes[i]))
        }
        values.append(.string(key))
        values.append(.string(outcome.status.rawValue))
        values.append(outcome.errorMessage.map { .string($0) } ?? .null)
        for n in [outcome.width, outcome.height, outcome.originalWidth, outcome.originalHeight] {
            values.append(n.map { .int32(Int32(clamping: $0)) } ?? .null)
        }
        if extractExif { values.append(outcome.exif.map { .string($0) } ?? .null) }
        if hash != nil, keptHashIndex == nil { values.append(outcome.hash.map { .string($0) } ?? .null) }
        if phash, keptPHashIndex == nil { values.append(outcome.phash.map { .string($0) } ?? .null) }
        if verifiedBy { values.append(outcome.verifiedBy.map { .string($0) } ?? .null) }
        return values
    }
}

extension DatasetColumnType {
    var metadataType: MetadataType {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .bool: .bool
        case .doubleLists: .doubleLists
        }
    }
}

extension InputValue {
    /// The value in its column's type; text that does not convert (a later shard's odd value) becomes null.
    func metadata(as type: DatasetColumnType) -> MetadataValue {
        switch (self, type) {
        case (.null, _): return .null
        case (_, .doubleLists): return boxes.map { .doubleLists($0) } ?? .null
        case (.string(let s), .string): return .string(s)
        case (_, .string): return text.map { .string($0) } ?? .null
        case (.int(let i), .int64): return .int64(i)
        case (.int(let i), .double): return .double(Double(i))
        case (.double(let d), .double): return .double(d)
        case (.bool(let b), .bool): return .bool(b)
        case (.string(let s), .int64): return Int64(s).map { .int64($0) } ?? .null
        case (.string(let s), .double): return Double(s).map { .double($0) } ?? .null
        case (.string(let s), .bool):
            switch s.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return .null
            }
        default: return .null
        }
    }
}

/// What became of one row.
struct RowOutcome: Sendable {
    enum Status: String, Sendable {
        case success, failedToDownload = "failed_to_download", failedToResize = "failed_to_resize", optedOut = "opted_out"
    }
    var status: Status
    var errorMessage: String?
    var image: [UInt8]?
    var width: Int?
    var height: Int?
    var originalWidth: Int?
    var originalHeight: Int?
    var exif: String?
    var hash: String?
    /// The image's pHash (16 hex digits), with `--compute-phash` / `--verify-phash`.
    var phash: String?
    /// The check the row passed (`verified_by`): the `--verify-hash` algorithm, or `phash`.
    var verifiedBy: String?
    /// The content hash placeholder detection counts (the computed hash, else SHA-256), when it is on.
    var digest: String?

    static func failed(_ status: Status, _ message: String) -> RowOutcome { RowOutcome(status: status, errorMessage: message) }
}
