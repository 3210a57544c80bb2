import Foundation
import GallerySystem

/// A sample of a finished dataset read back by `--input-format webdataset|parquet-images|files`: where its
/// image bytes are (read only when its row is worked on), its key, and the columns that describe the original
/// download (``originalWidth``, ``originalHeight``, ``exif``, the hashes), which the new dataset keeps.
public struct DatasetReshapeSource: Sendable {
    /// Where the image bytes are.
    public enum Image: Sendable {
        /// In memory (a Parquet shard's image column, decoded with its row group).
        case bytes([UInt8])
        /// A span of a file: a tar member, or a whole file of a `files` shard.
        case file(path: String, offset: Int64, size: Int)
    }

    public var image: Image
    /// The sample's key in the old dataset, kept as the new key.
    public var key: String
    public var originalWidth: Int?
    public var originalHeight: Int?
    public var exif: String?
    /// `md5`, `sha256`, `sha512` columns of the old dataset: the hash of the original download.
    public var hashes: [String: String] = [:]
    /// The local copy of a stored shard that ``image`` is read from, kept while the sample is (nil for a folder's).
    var spool: SpooledShard?
    /// The shard file ``image`` is in, held open by its reader (a tar's), or nil: the file is opened to be read.
    var file: OpenShardFile?

    /// The image bytes.
    func load() throws(DatasetError) -> [UInt8] {
        switch image {
        case .bytes(let bytes): return bytes
        case .file(let path, let offset, let size):
            if let file, file.path == path { return try file.read(count: size, at: offset) }
            do {
                let fd = try Syscall.open(path, O_RDONLY | O_CLOEXEC)
                defer { Syscall.closeQuietly(fd) }
                let bytes = try Syscall.read(fd, count: size, at: offset, path: path)
                guard bytes.count == size else {
                    throw DatasetError.unreadableInput(path: path, reason: "the image of \(key) is cut short (\(bytes.count) of \(size) bytes)")
                }
                return bytes
            } catch let error as DatasetError {
                throw error
            } catch {
                throw .unreadableInput(path: path, reason: "cannot read the image of \(key): \(error)")
            }
        }
    }

    /// The columns of an old sample that describe its original download, taken from its metadata.
    init(image: Image, key: String, fields: [String: InputValue]) {
        self.image = image
        self.key = key
        func int(_ name: String) -> Int? {
            switch fields[name] {
            case .int(let n)?: return Int(n)
            case .double(let d)?: return d.isFinite ? Int(d) : nil
            case .string(let s)?: return Int(s)
            default: return nil
            }
        }
        originalWidth = int("original_width")
        originalHeight = int("original_height")
        exif = fields["exif"]?.text
        for name in ["md5", "sha256", "sha512"] { if let text = fields[name]?.text { hashes[name] = text } }
    }

    /// The image extensions a sample's image member may have (webdataset's names; `jpeg` too).
    static let imageExtensions = ["jpg", "jpeg", "png", "webp", "avif"]
}
