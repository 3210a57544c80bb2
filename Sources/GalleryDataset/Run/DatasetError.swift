import GalleryRunner

/// The one error of the dataset stage: what stopped a whole run (a row's own failure is never an error, it is
/// a `failed_to_download` / `failed_to_resize` row in the metadata). Each case names the file and the reason.
public enum DatasetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An option value the run cannot use (`--input-format xml`, `--image-size 0`, a reserved column name).
    case invalidOption(String)
    /// The URL list (file or folder) cannot be opened or read.
    case unreadableInput(path: String, reason: String)
    /// A column the options name is not in the input; `available` lists the ones that are.
    case missingColumn(path: String, column: String, available: [String])
    /// The output folder or one of its shards cannot be written.
    case output(String)
    /// The store `--output-folder` names cannot be opened or used (malformed location, keys, no bucket).
    case store(GalleryStoreError)

    public var description: String {
        switch self {
        case .invalidOption(let text): return text
        case .unreadableInput(let path, let reason): return "cannot read \(path): \(reason)"
        case .missingColumn(let path, let column, let available):
            return "\(path) has no column '\(column)'; its columns are: "
                + (available.isEmpty ? "(none)" : available.joined(separator: ", "))
        case .output(let text): return text
        case .store(let error): return error.description
        }
    }
}
