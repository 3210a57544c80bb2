import Foundation
import GallerySystem

/// Writes whole files so a reader (or a crash) sees either the old file or the new one,
/// never a half-written one.
///
/// The bytes go to a temporary file in the same directory (anonymous, `O_TMPFILE`, where Linux
/// allows it; else named), which then takes the target's name: `linkat(2)` for a new file, `rename(2)`
/// over an existing one, both atomic on one file system (GallerySystem's `AtomicWrite`, the project's one
/// publish). Every file of the gallery folder is written through here. A write makes no failing probes:
/// parent directories are made only when creating the file reports them missing (most gallery files go
/// to folders that exist).
public enum AtomicFile {
    /// How temporary files start, so a cleaner can recognise leftovers of a killed run.
    public static let temporaryPrefix = TemporaryFile.prefix

    /// Writes `bytes` to `path`, creating the parent directories when missing.
    ///
    /// - Parameters:
    ///   - bytes: the whole new contents.
    ///   - path: the file to replace (or create).
    ///   - durable: also `fsync` the file before it is published and the directory after,
    ///     so the new contents survive a power loss and not only a crash of this process.
    public static func write(_ bytes: some Sequence<UInt8>, to path: String, durable: Bool = false) throws(GalleryError) {
        try write(Array(bytes), to: path, durable: durable, kind: .automatic)
    }

    /// ``write(_:to:durable:)-(some Sequence<UInt8>,_,_)`` with the kind of temporary file chosen
    /// (tests take the named fallback with `.named`).
    static func write(_ bytes: [UInt8], to path: String, durable: Bool, kind: TemporaryFile.Kind) throws(GalleryError) {
        try POSIX.gallery { () throws(SystemError) in try AtomicWrite.replace(path, with: bytes, durable: durable, kind: kind) }
    }

    /// Writes `text` as UTF-8.
    public static func write(_ text: String, to path: String, durable: Bool = false) throws(GalleryError) {
        try write(text.utf8, to: path, durable: durable)
    }

    /// Like ``write(_:to:durable:)-(some Sequence<UInt8>,_,_)``, but leaves the file alone when it already holds
    /// exactly `bytes`, so a re-run that changes nothing rewrites nothing (a create and a rename per page
    /// cost more than reading it back). Returns whether it wrote.
    @discardableResult
    public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(GalleryError) -> Bool {
        if POSIX.fileSize(path) == Int64(bytes.count),
           let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(bytes) {
            return false
        }
        try write(bytes, to: path)
        return true
    }

    /// Writes `text` as UTF-8 unless the file already holds exactly that; returns whether it wrote.
    @discardableResult
    public static func writeIfChanged(_ text: String, to path: String) throws(GalleryError) -> Bool {
        try writeIfChanged(Array(text.utf8), to: path)
    }
}
