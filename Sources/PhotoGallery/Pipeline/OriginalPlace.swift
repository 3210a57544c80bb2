import Foundation
import GallerySystem
import GalleryImaging

/// One photo's original in the gallery folder, and every step of its file's life, decided here once: its
/// path (the fanned-out place, or where a gallery made before the fan-out holds it), the photo's sub-folder,
/// a shard's staging file, the rename that publishes a staged download, the body published from memory, and
/// the extension its bytes call for. ``RunWorkspace/place(of:recorded:in:)`` finds it; the photo's steps
/// and ``ThumbnailWork`` only ask it.
struct OriginalPlace: Sendable {
    /// The gallery folder.
    let folder: String
    /// The original, relative to the folder.
    let path: String
    /// Whether the store holds a file at ``path`` (asked when the place was found).
    let stored: Bool
    /// Where a shard downloads it (its partial files are its own, even when another shard fetches the same
    /// photo; the complete file is published by rename); nil: a whole job downloads straight to its place.
    let staging: String?
    /// The photo's id and name, which the file's name is made of.
    let id: Int
    let name: String
    /// Nothing can be at its paths but what this run writes (the gallery started empty): neither the file
    /// nor a partial download is looked for.
    var new = false

    /// The original's file.
    var destination: String { folder + "/" + path }

    /// Where the download goes.
    var downloadTarget: String { staging ?? destination }

    /// Whether the download is done: the engine publishes a download by a rename once it is verified, so a
    /// file there is complete.
    var isDownloaded: Bool { !new && POSIX.fileSize(downloadTarget) != nil }

    /// Makes the photo's sub-folder (photos/ itself exists); one already there is the common case.
    func makeFolder() {
        POSIX.makeDirectory(PathText.directory(destination))
    }

    /// Moves a shard's complete download from its staging folder to its place (nothing for a whole job).
    func publishStaged() throws(GalleryError) {
        if let staging { try POSIX.rename(staging, destination) }
    }

    /// Writes an original still in memory to its place, as it is (a run stopping keeps it for the next run,
    /// which finds it complete).
    func keep(_ body: UnpublishedDownload?) {
        _ = try? body?.publish(to: destination)
    }

    /// Publishes an original that arrived whole in memory under the name its bytes call for; its path.
    func publish(_ body: UnpublishedDownload, _ bytes: UnsafeRawBufferPointer) throws(TransferError) -> String {
        let fixed = fixedPath(bytes)
        try body.publish(to: folder + "/" + fixed)
        return fixed
    }

    /// Renames the original on disk to the extension its bytes call for (a PNG served as `x.jpg` becomes
    /// `.png`; a WebP, GIF, HEIC or AVIF `.webp`, `.gif`, `.heic` or `.avif`); its path.
    func fixExtension(_ bytes: UnsafeRawBufferPointer) throws(GalleryError) -> String {
        let renamed = fixedPath(bytes)
        guard renamed != path else { return path }
        try POSIX.rename(destination, folder + "/" + renamed)
        return renamed
    }

    /// Where the original belongs given its bytes: ``path``, or the same name beside it with the extension
    /// of the format the bytes are.
    func fixedPath(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let format = ImageFormat.sniff(bytes), format.isDecodable else { return path }
        let wanted = format.fileExtension
        let current = PathText.fileExtension(path).lowercased()
        guard current != wanted && !(current == "jpeg" && wanted == "jpg") else { return path }
        // Beside the original, in whichever layout it is.
        return PathText.directory(path) + "/" + GalleryNaming.originalFileName(id: id, name: name, extension: wanted)
    }

    /// The extension for an original, from its URL (`.jpg`/`.jpeg`/`.png`/`.webp`/`.gif`, else `.jpg`);
    /// fixed after download if the bytes disagree.
    static func fileExtension(of url: URL) -> String {
        guard let format = ImageFormat(fileExtension: url.pathExtension), format.isDecodable else { return "jpg" }
        return format.fileExtension
    }
}
