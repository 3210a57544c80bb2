import Foundation

/// One value of an input row, typed as the input gave it (JSON) or as text (CSV, TSV, txt).
public enum InputValue: Sendable, Equatable {
    case null
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// A list (a Parquet list column; a list of lists for boxes).
    indirect case list([InputValue])

    /// The value as text (for the URL, the caption and a hash to verify); nil for null.
    public var text: String? {
        switch self {
        case .null: return nil
        case .string(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "true" : "false"
        case .list(let items): return "[" + items.map { $0.text ?? "null" }.joined(separator: ", ") + "]"
        }
    }

    /// A JSON value from JSONSerialization; objects and arrays are kept as their JSON text.
    init(json value: Any) {
        switch value {
        case is NSNull: self = .null
        case let s as String: self = .string(s)
        case let n as NSNumber:
            // objCType is how corelibs Foundation tells a JSON true ("c") from 1 ("i"/"q") and 1.5 ("d").
            switch String(cString: n.objCType) {
            case "c", "B": self = .bool(n.boolValue)
            case "d", "f": self = .double(n.doubleValue)
            default: self = .int(n.int64Value)
            }
        default:
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
            self = data.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null
        }
    }
}

/// One record of a URL list: its fields by column name, or why it could not be read (a malformed CSV line
/// or JSON record fails that row, never the run). `line` is the 1-based line (or record) it started at.
public struct InputRecord: Sendable {
    public var fields: [String: InputValue]
    public var problem: String?
    public var line: Int
    /// A sample of a finished dataset (`--input-format webdataset|parquet-images|files`): its image is read
    /// from the old shard, not fetched.
    public var reshape: DatasetReshapeSource? = nil
}

/// Reads records from one input file, streamed.
protocol InputRecordReader: AnyObject {
    /// The file's column names (CSV header, the first JSON record's keys, `url` for txt).
    var columns: [String] { get }
    func next() throws(DatasetError) -> InputRecord?
    /// Passes over the next `count` records without making them (a shard another process writes, or one an
    /// earlier run finished); returns how many there were (fewer at the end of the file).
    func skip(_ count: Int) throws(DatasetError) -> Int
}

extension InputRecordReader {
    /// Text formats have no index of their records: they are read and dropped.
    func skip(_ count: Int) throws(DatasetError) -> Int {
        var skipped = 0
        while skipped < count, try next() != nil { skipped += 1 }
        return skipped
    }
}

/// The first record of a JSON input, read when its reader opens: the columns are its keys (when it is a
/// good record), and it is handed out again as the first of ``InputRecordReader/next()``.
struct FirstRecord {
    private(set) var columns: [String] = []
    private var held: InputRecord?

    init(_ record: InputRecord?) {
        held = record
        if let record, record.problem == nil { columns = Array(record.fields.keys).sorted() }
    }

    /// The record, once; nil after.
    mutating func take() -> InputRecord? {
        defer { held = nil }
        return held
    }
}
