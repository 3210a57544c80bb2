import DatasetFormats
import Foundation
import GallerySystem

/// The placeholders a run found, kept in the output folder (`placeholders.json`; `placeholders-K-of-N.json` for
/// each process of a `--shard K/N` run, so that none overwrites another's) for the runs after it: the first URL
/// of a placeholder's host was written as a success before a second URL served the same bytes, and
/// `--retry-failed --detect-placeholders` rewrites the finished shards that hold such a row, marking it
/// `failed_to_download` "placeholder image" (its image left out), from the row's URL and hash columns.
///
/// The file: `{"placeholder_urls": N, "placeholders": [{"host": "https://h.example", "digest": "16 hex"}]}`
/// (the digest: the first 16 hex digits of the `--compute-hash` column, or of the SHA-256 without one).
extension DatasetRun {
    static let placeholdersFile = "placeholders.json"

    /// The file this process writes.
    var placeholdersFile: String {
        options.shard.map { "placeholders-\($0.index)-of-\($0.count).json" } ?? Self.placeholdersFile
    }

    /// Flags what the folder's placeholder files list, every process's (detection on, a local folder; no file
    /// flags nothing). A file that cannot be read, or is not such a list, stops the run naming it (remove it to
    /// start afresh).
    func loadPlaceholders() throws(DatasetError) {
        guard placeholders != nil, let folder = localFolder else { return }
        let names: [String]
        do { names = try sink.list() } catch { throw .output("cannot list the output folder \(folder): \(error)") }
        for name in names.sorted() where name == Self.placeholdersFile || (name.hasPrefix("placeholders-") && name.hasSuffix(".json")) {
            try loadPlaceholders(from: folder + "/" + name)
        }
    }

    private func loadPlaceholders(from path: String) throws(DatasetError) {
        guard let detector = placeholders else { return }
        let bytes: [UInt8]?
        do { bytes = try Syscall.readAll(path) } catch { throw .output("cannot read \(path): \(error)") }
        guard let bytes else { return }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let list = object["placeholders"] as? [[String: Any]] else {
            throw .output("\(path) is not a placeholder list ({\"placeholders\": [{\"host\": ..., \"digest\": ...}]}); remove it to start afresh")
        }
        for entry in list {
            guard let host = entry["host"] as? String, let digest = entry["digest"] as? String, PlaceholderDetector.key(digest) != nil else {
                throw .output("\(path): an entry without a host or a hex digest: \(entry)")
            }
            detector.flag(host: host, digest: digest)
        }
    }

    /// Writes `placeholders.json` when the run knows of any placeholder (the earlier file's ones included);
    /// returns why it could not.
    func savePlaceholders() -> String? {
        guard let detector = placeholders, localFolder != nil else { return nil }
        let flagged = detector.flagged
        guard !flagged.isEmpty else { return nil }
        let object: [String: Any] = ["placeholder_urls": detector.policy.urls,
                                     "placeholders": flagged.map { ["host": $0.host, "digest": $0.digest] }]
        do throws(DatasetFormatError) {
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
                return "\(placeholdersFile): not JSON"
            }
            let handle = try sink.create(placeholdersFile)
            try handle.write(Array(data) + [10])
            try handle.close()
            return nil
        } catch {
            return "\(placeholdersFile): \(error)"
        }
    }

    /// Whether `previous` holds a success row whose content is now a known placeholder of its host.
    func holdsPlaceholders(_ previous: PreviousShard, schema: DatasetSchema) -> Bool {
        guard placeholders != nil else { return false }
        return previous.rows.values.contains { isPlaceholder($0, schema: schema) }
    }

    /// `row` as this run keeps it: a success whose content is a known placeholder of its host becomes
    /// `failed_to_download` "placeholder image", its sizes, EXIF and hashes emptied as a failed row has them.
    func unlessPlaceholder(_ row: PreviousShard.Row, schema: DatasetSchema) -> PreviousShard.Row {
        guard isPlaceholder(row, schema: schema) else { return row }
        var marked = row
        marked.status = .failedToDownload
        marked.errorMessage = PlaceholderDetector.message
        let emptied: Set<String> = ["width", "height", "original_width", "original_height", "exif", DatasetVerification.phashColumn,
                                    DatasetVerification.verifiedByColumn, options.computeHash?.rawValue ?? ""]
        for (i, column) in schema.columns.enumerated() where i < marked.metadata.count {
            switch column.name {
            case "status": marked.metadata[i] = .string(RowOutcome.Status.failedToDownload.rawValue)
            case "error_message": marked.metadata[i] = .string(PlaceholderDetector.message)
            case let name where emptied.contains(name): marked.metadata[i] = .null
            default: break
            }
        }
        return marked
    }

    private func isPlaceholder(_ row: PreviousShard.Row, schema: DatasetSchema) -> Bool {
        guard let detector = placeholders, row.status == .success, let hash = options.computeHash?.rawValue,
              let urlIndex = schema.columns.firstIndex(where: { $0.name == "url" }),
              let hashIndex = schema.columns.firstIndex(where: { $0.name == hash }),
              hashIndex < row.metadata.count, urlIndex < row.metadata.count,
              case .string(let url) = row.metadata[urlIndex], case .string(let digest) = row.metadata[hashIndex] else { return false }
        return detector.isPlaceholder(url: url, digest: digest)
    }
}
