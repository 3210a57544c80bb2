import DatasetFormats
import Foundation

/// A finished shard, read back for `--retry-failed`: each row's metadata and status from its `NNNNN.parquet`,
/// and its image from the tar (`webdataset`) or the shard's folder (`files`), read only when the row is kept.
struct PreviousShard: Sendable {
    struct Row: Sendable {
        var metadata: [MetadataValue]
        var status: RowOutcome.Status
        var errorMessage: String?
    }
    let rows: [String: Row]
    var failedToDownload: Int { rows.values.filter { $0.status == .failedToDownload }.count }
    private let tar: TarIndex?
    private let folder: String?
    private let imageExtension: String
    private let name: String

    /// Reads shard `name` of the dataset in `folder`; its metadata must have `schema`'s columns.
    init(name: String, folder: String, format: DatasetOutputFormat, schema: [MetadataColumn],
         imageExtension: String) throws(DatasetError) {
        self.name = name
        self.imageExtension = imageExtension
        let base = folder + "/" + name
        switch format {
        case .webdataset: tar = try TarIndex(path: base + ".tar"); self.folder = nil
        case .files: tar = nil; self.folder = base
        case .parquet, .tfrecord:
            throw .invalidOption("--retry-failed rewrites files and webdataset shards; \(format.rawValue) is not supported yet")
        }
        let path = base + ".parquet"
        var rows: [String: Row] = [:]
        do {
            let reader = try ParquetFileReader(path: path)
            let names = reader.columns.map(\.name)
            guard names == schema.map(\.name) else {
                throw DatasetError.output("\(path): its columns (\(names.joined(separator: ", "))) are not this run's (\(schema.map(\.name).joined(separator: ", ")))")
            }
            let keyIndex = names.firstIndex(of: "key")!, statusIndex = names.firstIndex(of: "status")!
            let messageIndex = names.firstIndex(of: "error_message")!
            for group in reader.rowGroupRowCounts.indices {
                let columns = try reader.readRowGroup(group, columns: names)
                for r in 0..<(columns.first?.count ?? 0) {
                    let values = schema.indices.map { Self.value(columns[$0][r], as: schema[$0].type) }
                    guard let key = columns[keyIndex][r].string,
                          let status = columns[statusIndex][r].string.flatMap(RowOutcome.Status.init(rawValue:)) else {
                        throw DatasetError.output("\(path): row \(r) of row group \(group) has no key or no known status")
                    }
                    rows[key] = Row(metadata: values, status: status, errorMessage: columns[messageIndex][r].string)
                }
            }
        } catch let error as DatasetError {
            throw error
        } catch {
            throw .output("cannot read \(path): \(error)")
        }
        self.rows = rows
    }

    /// The image a kept success row has in the shard.
    func image(_ key: String) throws(DatasetError) -> [UInt8]? {
        let member = key + "." + imageExtension
        if let tar { return try tar.read(member) }
        guard let folder, let data = FileManager.default.contents(atPath: folder + "/" + member) else {
            throw .output("\(name): the image \(member) of a success row is missing")
        }
        return [UInt8](data)
    }

    static func value(_ value: ParquetReadValue, as type: MetadataType) -> MetadataValue {
        switch (value, type) {
        case (.null, _): return .null
        case (.list, .doubleLists): return InputValue(value).metadata(as: .doubleLists)
        case (.list, _): return .string(value.string ?? "")
        case (.bytes(let b), _): return .string(String(decoding: b, as: UTF8.self))
        case (.int32(let n), .int64): return .int64(Int64(n))
        case (.int32(let n), _): return .int32(n)
        case (.int64(let n), .int32): return .int32(Int32(truncatingIfNeeded: n))
        case (.int64(let n), _): return .int64(n)
        case (.double(let x), _): return .double(x)
        case (.float(let x), _): return .double(Double(x))
        case (.bool(let b), _): return .bool(b)
        }
    }
}
