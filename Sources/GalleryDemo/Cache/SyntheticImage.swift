import Foundation

/// The bytes of one photo of a synthetic catalogue: its variant's JPEG with a comment segment
/// (`FF FE`, "fetch-gallery synthetic photo ID") inserted right after the start-of-image marker.
/// Decoders skip comments, so every photo decodes to its variant's pixels at its variant's cost,
/// while its bytes and SHA-256 are its own (a client's content-keyed cache cannot shortcut it).
enum SyntheticImage {
    /// The comment naming photo `id`.
    static func comment(for id: Int) -> [UInt8] {
        Array("fetch-gallery synthetic photo \(id)".utf8)
    }

    /// `jpeg` with the comment for `id` inserted after its SOI marker.
    static func bytes(of id: Int, jpeg: [UInt8]) throws(DemoError) -> [UInt8] {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw .renderFailed(photoID: id, size: 0, reason: "the variant is not a JPEG (no start-of-image marker)")
        }
        let text = comment(for: id)
        let length = text.count + 2
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text + jpeg[2...]
    }

    /// The bytes of photo `id` from its variant's cached file at `path`.
    static func bytes(of id: Int, from path: String) throws(DemoError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .renderFailed(photoID: id, size: 0, reason: "\(path): the cached variant cannot be read")
        }
        return try bytes(of: id, jpeg: Array(data))
    }
}
