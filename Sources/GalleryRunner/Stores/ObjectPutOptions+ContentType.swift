import GalleryImaging
import GalleryObjectStore

extension ObjectPutOptions {
    /// The `Content-Type` of the file at `path`, from its extension: an image's from ``ImageFormat``,
    /// the gallery's and the dataset's own files' here.
    public static func contentType(of path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if let format = ImageFormat(fileExtension: ext) { return format.mediaType }
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "json": return "application/json"
        case "jsonl": return "application/x-ndjson"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
