import Foundation

/// `txt`: one URL a line, column `url`; blank lines skipped, as pyarrow's CSV reader does with img2dataset's
/// `column_names=["url"]`. The whole line is the URL (a comma in a URL is no problem here).
final class TextLinesReader: InputRecordReader {
    let columns = ["url"]
    private let lines: GzipLineReader

    init(path: String) throws(DatasetError) { lines = try GzipLineReader(path: path) }

    func next() throws(DatasetError) -> InputRecord? {
        while let line = try lines.nextLine() {
            if line.isEmpty { continue }
            return InputRecord(fields: ["url": .string(String(decoding: line, as: UTF8.self))], problem: nil,
                               line: lines.lineNumber)
        }
        return nil
    }
}

extension DatasetInputFormat {
    /// A streamed reader of `path` in this format.
    func reader(path: String) throws(DatasetError) -> any InputRecordReader {
        switch kind {
        case .txt: try TextLinesReader(path: path)
        case .csv: try DelimitedReader(path: path, separator: UInt8(ascii: ","))
        case .tsv: try DelimitedReader(path: path, separator: 9)
        case .jsonl: try JSONLinesReader(path: path)
        case .json: try JSONArrayReader(path: path)
        case .parquet: try ParquetRecordReader(path: path)
        case .webdataset: try OldSampleReader.webdataset(path: path)
        case .parquetImages: try ParquetImagesReader(path: path)
        case .files: try OldSampleReader.files(path: path)
        }
    }

    /// The files of `--url-list`: the file itself, or a folder's files ending in `.<format>` in name order.
    public func inputFiles(at path: String) throws(DatasetError) -> [String] {
        if kind.isDataset { return try ReshapeInput.inputFiles(at: path, kind: kind) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .unreadableInput(path: path, reason: "no such file or folder")
        }
        guard isFolder.boolValue else { return [path] }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw .unreadableInput(path: path, reason: "cannot list the folder")
        }
        let files = names.filter { $0.hasSuffix("." + description) }.sorted()
            .map { (path as NSString).appendingPathComponent($0) }
        guard !files.isEmpty else {
            throw .unreadableInput(path: path, reason: "no file ending in .\(description) in this folder")
        }
        return files
    }
}
