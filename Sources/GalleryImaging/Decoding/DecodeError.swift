/// Why an image could not be decoded. Every case names the input (a file path, URL or label given
/// by the caller) so one line of log says which image failed and why.
public enum DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes start with no known image signature (HTML error pages, empty files, ...).
    case notAnImage(name: String)
    /// A real image in a format or variant we do not decode (TIFF, BMP, 12-bit or lossless JPEG, ...).
    case unsupported(name: String, reason: String)
    /// The data ends before the image does.
    case truncated(name: String)
    /// The data is malformed; `reason` is the codec's own message.
    case corrupt(name: String, reason: String)
    /// Over a guard (pixels, decoded bytes, progressive scans, codec memory, libjpeg's 65500 side),
    /// refused before the pixel buffer is allocated. `width` x `height` is the size the header
    /// claims (0 when it could not be read).
    case tooLarge(name: String, width: Int, height: Int, limit: String)
    /// The file could not be read.
    case io(name: String, reason: String)

    /// The input the error is about.
    public var name: String {
        switch self {
        case .notAnImage(let name), .unsupported(let name, _), .truncated(let name),
             .corrupt(let name, _), .tooLarge(let name, _, _, _), .io(let name, _):
            name
        }
    }

    /// One line: the input, then what went wrong.
    public var description: String {
        switch self {
        case .notAnImage(let name):
            "\(name): not an image (no JPEG, PNG, WebP, GIF, HEIC or AVIF signature)"
        case .unsupported(let name, let reason):
            "\(name): unsupported image: \(reason)"
        case .truncated(let name):
            "\(name): truncated image data (the data ends before the image does)"
        case .corrupt(let name, let reason):
            "\(name): corrupt image data: \(reason)"
        case .tooLarge(let name, let width, let height, let limit):
            "\(name): image too large (\(width)x\(height)): \(limit)"
        case .io(let name, let reason):
            "\(name): cannot read: \(reason)"
        }
    }
}
