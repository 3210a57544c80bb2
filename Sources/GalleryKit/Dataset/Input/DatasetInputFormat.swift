/// The URL list formats `--input-format` takes, as img2dataset names them (`csv`, `csv.gz`, ...).
public struct DatasetInputFormat: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable { case txt, csv, tsv, json, jsonl }
    public var kind: Kind
    /// The files are gzip-compressed (`.gz`).
    public var gzip: Bool

    public init(kind: Kind, gzip: Bool = false) {
        self.kind = kind
        self.gzip = gzip
    }

    /// Parses `txt`, `csv`, `tsv`, `json`, `jsonl`, each optionally with `.gz`.
    public init(parsing text: String) throws(DatasetError) {
        let gzip = text.hasSuffix(".gz")
        let base = gzip ? String(text.dropLast(3)) : text
        guard let kind = Kind(rawValue: base) else {
            throw .invalidOption("--input-format \(text) is not one of txt, csv, tsv, json, jsonl (each also .gz)"
                + (text == "parquet" ? "; convert a Parquet list with e.g. duckdb -c \"COPY (FROM 'in.parquet') TO 'in.jsonl'\"" : ""))
        }
        self.init(kind: kind, gzip: gzip)
    }

    /// The file name extension a folder of inputs is globbed by (`csv.gz`).
    public var description: String { kind.rawValue + (gzip ? ".gz" : "") }
}
