import Foundation

/// Writes one rendition of a photo (a thumbnail size or the display picture): encoded in the job's
/// thumbnail format, written whole under its gallery name (``AtomicFile``), handed to the store, then each
/// extra encoding (``GalleryJob/extraThumbnailFormats``) beside it under the same name. The one place a
/// rendition's file is made.
struct RenditionWriter: Sendable {
    var folder: String
    var id: Int
    var name: String
    var thumbnailer: Thumbnailer
    var extraFormats: [ThumbnailFormat]
    var store: any GalleryStore

    /// Writes `bitmap` as the `size` rendition of the original at `source` (named in codec errors) and
    /// returns its record.
    func write(_ bitmap: Bitmap, size: Int, source: String) throws(PipelineError) -> ThumbnailFile {
        let path = try write(bitmap, size: size, source: source, with: thumbnailer)
        for format in extraFormats {
            var other = thumbnailer
            other.format = format
            _ = try write(bitmap, size: size, source: source, with: other)
        }
        return ThumbnailFile(size: size, path: path, width: bitmap.width, height: bitmap.height)
    }

    /// One encoding: encode, write, publish; returns the file's path relative to the gallery.
    private func write(_ bitmap: Bitmap, size: Int, source: String, with encoder: Thumbnailer) throws(PipelineError) -> String {
        let encoded: EncodedImage
        do { encoded = try encoder.encode(bitmap, name: source) } catch { throw .imaging(error) }
        let relative = GalleryNaming.thumbnailPath(id: id, name: name, size: size, extension: encoded.fileExtension)
        do { try AtomicFile.write(encoded.bytes, to: folder + "/" + relative) } catch { throw .gallery(error) }
        store.publish(relative)
        return relative
    }
}
