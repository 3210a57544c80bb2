import Foundation
import GallerySystem

/// The on-disk originals store: each downloaded original kept byte for byte under a name derived
/// from the SHA-256 of its URL (so any URL, however long or hostile, makes a safe 64-character
/// name), with its HTTP validator in a small sidecar. Files are published atomically (temporary
/// file + rename), so a reader, another pipeline or a crash never sees half a file.
struct OriginalStore: Sendable {
    /// The store's folder.
    let folder: String

    /// A stored original and the validator it was served with.
    struct Entry: Sendable {
        var bytes: [UInt8]
        var validator: ImageCacheKey.Validator?
    }

    /// The path of the original of `url` (whether or not it exists).
    func path(for url: String) -> String {
        folder + "/" + SHA256.hex(Array(url.utf8))
    }

    /// The stored original of `url`, or nil when there is none.
    func read(_ url: String) throws(ImagePipelineError) -> Entry? {
        let file = path(for: url)
        guard Syscall.exists(file) else { return nil }
        let bytes: [UInt8]
        do { bytes = try ImageDecoder.readFile(atPath: file) } catch {
            throw ImagePipelineError(source: .url(url), stage: .store, reason: .decode(error))
        }
        let sidecar = (try? ImageDecoder.readFile(atPath: file + ".validator")) ?? []
        return Entry(bytes: bytes, validator: Self.validator(parsing: String(decoding: sidecar, as: UTF8.self)))
    }

    /// Keeps `bytes` as the original of `url`. The sidecar goes first: an original never sits
    /// beside the validator of an older version.
    func write(_ bytes: [UInt8], validator: ImageCacheKey.Validator?, for url: String,
               durable: Bool) throws(ImagePipelineError) {
        let file = path(for: url)
        do {
            try AtomicFile.write(Self.text(of: validator), to: file + ".validator", durable: durable)
            try AtomicFile.write(bytes, to: file, durable: durable)
        } catch {
            throw ImagePipelineError(source: .url(url), stage: .store, reason: .store(error))
        }
    }

    /// `etag VALUE` or `last-modified VALUE` on one line; empty when there is no validator.
    static func text(of validator: ImageCacheKey.Validator?) -> String {
        switch validator {
        case .etag(let value): "etag \(value)\n"
        case .lastModified(let value): "last-modified \(value)\n"
        case .file, nil: ""
        }
    }

    static func validator(parsing text: String) -> ImageCacheKey.Validator? {
        let line = text.trimmingCharacters(in: .newlines)
        if line.hasPrefix("etag ") { return .etag(String(line.dropFirst(5))) }
        if line.hasPrefix("last-modified ") { return .lastModified(String(line.dropFirst(14))) }
        return nil
    }
}
