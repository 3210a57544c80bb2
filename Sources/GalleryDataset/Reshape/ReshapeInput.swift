import Foundation
import GalleryRunner
import GallerySystem

/// `--input-format webdataset|parquet-images|files`: a finished dataset read back as the input of a new one
/// (another size, resize mode, shard size or format, a subset), from the image bytes its shards hold: no row
/// is fetched. Each sample keeps its key; its caption and metadata columns are carried over.
extension DatasetInputFormat.Kind {
    /// Whether the input is a dataset's shards rather than a URL list.
    public var isDataset: Bool { self == .webdataset || self == .parquetImages || self == .files }
}

enum ReshapeInput {
    /// The shards of the old dataset at `path`: a shard itself, or the folder's `*.tar` (webdataset),
    /// `*.parquet` (parquet-images) or numbered shard folders (files), in name order.
    static func inputFiles(at path: String, kind: DatasetInputFormat.Kind) throws(DatasetError) -> [String] {
        guard let info = Syscall.status(path) else { throw .unreadableInput(path: path, reason: "no such file or folder") }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        if !isFolder || (kind == .files && Self.isShardFolder(path)) { return [path] }
        let names: [String]
        do { names = try Syscall.names(in: path) } catch { throw .unreadableInput(path: path, reason: "cannot list the folder: \(error.message)") }
        let files: [String]
        switch kind {
        case .webdataset: files = names.filter { $0.hasSuffix(".tar") }.sorted().map { path + "/" + $0 }
        case .parquetImages: files = names.filter { $0.hasSuffix(".parquet") }.sorted().map { path + "/" + $0 }
        default:
            files = names.sorted().map { path + "/" + $0 }.filter(Self.isShardFolder)
        }
        guard !files.isEmpty else {
            let what = kind == .webdataset ? "no .tar shard" : kind == .parquetImages ? "no .parquet shard" : "no shard folder (00000/, ...)"
            throw .unreadableInput(path: path, reason: "\(what) in this folder")
        }
        return files
    }

    /// A folder named by digits, as the `files` format's shards are.
    private static func isShardFolder(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !name.isEmpty, name.allSatisfy(\.isNumber), let info = Syscall.status(path) else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// New shards written at once by a reshape of a folder's webdataset or files: half of ``MD5Lanes``' sixteen
    /// lanes. On 2 CPUs 8 gave the shortest reshard of 100,000 samples (4.7-5.4 s, against 5.0-6.4 s with 4 and
    /// 5.4-6.1 s with 16), at 111 MB of memory (88 MB with 4, 158 MB with 16).
    static let shardsInFlight = 8

    /// The old dataset's own columns, which the new one computes again or keeps apart.
    static let computed: Set<String> = ["key", "status", "error_message", "width", "height", "original_width",
                                        "original_height", "exif", "md5", "sha256", "sha512"]

    /// The options a reshape runs with: the caption carried over when the old samples have one (unless
    /// `--caption-col` names another column), every other column of theirs kept (unless
    /// `--save-additional-columns` lists which), and the image bytes kept as they are when nothing changes
    /// them (``DatasetImageOptions/skipReencode``).
    /// `stored`: the dataset when it is in a store (its first shard gives the columns), else a local folder's.
    static func resolve(_ options: DatasetOptions, stored: StoredDataset? = nil) throws(DatasetError) -> DatasetOptions {
        guard options.inputFormat.kind.isDataset else { return options }
        var o = options
        let columns: [String]
        if let stored {
            columns = try stored.columns()
        } else {
            if GalleryStores.isRemote(options.urlList) {
                throw .invalidOption("\(options.urlList): a dataset in a store is read by a run opened with DatasetRun.open")
            }
            let files = try inputFiles(at: options.urlList, kind: options.inputFormat.kind)
            columns = try options.inputFormat.reader(path: files[0]).columns
        }
        if o.columns.captionColumn == nil, columns.contains("caption") { o.columns.captionColumn = "caption" }
        if o.columns.additional.isEmpty {
            let taken: Set<String> = ["url", o.columns.captionColumn ?? "caption", o.columns.bboxColumn ?? ""]
            o.columns.additional = columns.filter { !DatasetColumns.reserved.contains($0) && !computed.contains($0) && !taken.contains($0) }
        }
        o.image.skipReencode = true
        // Samples read in place from a folder's tars or files hold nothing but their metadata while they wait,
        // so many new shards are written at once: their tars' MD5s (for the wids index) then fill the lanes of
        // ``MD5Lanes``. A store's shards are copied to disk first, and a Parquet shard's images are held in
        // memory with their row group, so those keep the default.
        if stored == nil, options.inputFormat.kind != .parquetImages {
            o.shardsInFlight = max(o.shardsInFlight, Self.shardsInFlight)
        }
        return o
    }
}
