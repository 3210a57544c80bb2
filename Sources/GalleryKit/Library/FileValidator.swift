import GallerySystem

/// A local file's cache validator: its modification time and size, from one `stat(2)`.
enum FileValidator {
    /// The validator of the regular file at `path`, or nil when there is none.
    static func of(_ path: String) -> ImageCacheKey.Validator? {
        guard let info = Syscall.regularFileStatus(path) else { return nil }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return .file(modified: modified, size: Int64(info.st_size))
    }
}
