/// Which input columns a dataset keeps and under which names, in img2dataset's order: the
/// `--save-additional-columns`, then `caption`, then the `--verify-hash` column (named after its algorithm),
/// then `url`. A `txt` list has the `url` column only.
public struct DatasetColumns: Sendable, Equatable {
    public var urlColumn = "url"
    public var captionColumn: String?
    public var additional: [String] = []
    /// The column holding each row's expected hash, and the algorithm (`md5`, `sha256`, `sha512`).
    public var verifyHash: (column: String, algorithm: String)?
    /// `--bbox-col`: the column of boxes to blur (``BoxBlur``), kept in the metadata after the additional
    /// columns, as img2dataset appends it to `save_additional_columns`.
    public var bboxColumn: String?
    /// `--verify-phash`: the column holding each row's expected 64-bit pHash (16 hex digits), kept as `phash`
    /// after the `--verify-hash` column (see ``DatasetVerification``).
    public var verifyPHash: String?

    public init(urlColumn: String = "url", captionColumn: String? = nil, additional: [String] = [],
                verifyHash: (column: String, algorithm: String)? = nil) {
        self.urlColumn = urlColumn
        self.captionColumn = captionColumn
        self.additional = additional
        self.verifyHash = verifyHash
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.urlColumn == b.urlColumn && a.captionColumn == b.captionColumn && a.additional == b.additional
            && a.verifyHash?.column == b.verifyHash?.column && a.verifyHash?.algorithm == b.verifyHash?.algorithm
            && a.bboxColumn == b.bboxColumn && a.verifyPHash == b.verifyPHash
    }

    /// Names img2dataset keeps for itself (refused in `--save-additional-columns`).
    public static let reserved: Set<String> = ["key", "caption", "url", "width", "height", "original_width",
        "original_height", "status", "error_message", "exif", "md5", "sha256", "sha512"]

    /// The kept columns for `format`: (name in the output, name in the input).
    public func kept(for format: DatasetInputFormat) -> [(output: String, input: String)] {
        if format.kind == .txt { return [("url", "url")] }
        var list = additional.map { ($0, $0) }
        if let bboxColumn { list.append((bboxColumn, bboxColumn)) }
        if let captionColumn { list.append(("caption", captionColumn)) }
        if let verifyHash { list.append((verifyHash.algorithm, verifyHash.column)) }
        if let verifyPHash { list.append((DatasetVerification.phashColumn, verifyPHash)) }
        list.append(("url", urlColumn))
        return list
    }

    /// Refuses a file that lacks a kept column, naming the columns it has.
    func check(available: [String], format: DatasetInputFormat, path: String) throws(DatasetError) {
        for (_, input) in kept(for: format) where !available.contains(input) {
            throw .missingColumn(path: path, column: input, available: available)
        }
    }
}

/// The type a kept additional column gets in the metadata, inferred from the first shard's values as
/// pyarrow infers a CSV or JSON column: all integers -> int64, all numbers -> double, all booleans -> bool,
/// else string. `url`, `caption` and the hash column are always strings.
public enum DatasetColumnType: Sendable, Equatable {
    case string, int64, double, bool
    /// Lists of lists of numbers (boxes): `list<list<double>>`, as pyarrow reads DataComp's `face_bboxes`.
    case doubleLists

    static func infer(_ values: [InputValue]) -> DatasetColumnType {
        var sawInt = false, sawDouble = false, sawBool = false, sawString = false, sawLists = false
        for value in values {
            switch value {
            case .null: break
            case .list: if value.boxes != nil { sawLists = true } else { sawString = true }
            case .int: sawInt = true
            case .double: sawDouble = true
            case .bool: sawBool = true
            case .string(let s):
                if s.isEmpty { break }
                if Int64(s) != nil { sawInt = true } else if Double(s) != nil, s.first != "n", s.first != "i" { sawDouble = true }
                else if ["true", "false"].contains(s.lowercased()) { sawBool = true } else { sawString = true }
            }
        }
        if sawLists { return sawString || sawBool || sawInt || sawDouble ? .string : .doubleLists }
        if sawString || (sawBool && (sawInt || sawDouble)) { return .string }
        if sawBool { return .bool }
        if sawDouble { return .double }
        if sawInt { return .int64 }
        return .string
    }
}
