/// The URL list formats `--input-format` takes, as img2dataset names them (`csv`, `csv.gz`, ...), and the
/// finished datasets a new one is made from without downloading again (`webdataset`, `parquet-images`, `files`).
public struct DatasetInputFormat: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case txt, csv, tsv, json, jsonl, parquet
        case webdataset, parquetImages = "parquet-images", files
    }
    public var kind: Kind
    /// The files are gzip-compressed (`.gz`).
    public var gzip: Bool

    public init(kind: Kind, gzip: Bool = false) {
        self.kind = kind
        self.gzip = gzip
    }

    /// Parses `txt`, `csv`, `tsv`, `json`, `jsonl`, each optionally with `.gz`, and `parquet`.
    public init(parsing text: String) throws(DatasetError) {
        let gzip = text.hasSuffix(".gz")
        let base = gzip ? String(text.dropLast(3)) : text
        guard let kind = Kind(rawValue: base), !(gzip && (kind == .parquet || kind.isDataset)) else {
            throw .invalidOption("--input-format \(text) is not one of txt, csv, tsv, json, jsonl (each also .gz), parquet, "
                + "or a finished dataset: webdataset, parquet-images, files")
        }
        self.init(kind: kind, gzip: gzip)
    }

    /// The file name extension a folder of inputs is globbed by (`csv.gz`).
    public var description: String { kind.rawValue + (gzip ? ".gz" : "") }
}
