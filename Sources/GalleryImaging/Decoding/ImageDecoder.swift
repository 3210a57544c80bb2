/// Decodes JPEG, PNG, WebP, GIF, HEIC and AVIF into a ``Bitmap``, reduced in the codec when the target allows, with the
/// EXIF orientation reported (not applied).
///
/// The format comes from the magic bytes only. Guards in ``DecodeOptions`` are checked from the
/// header before any pixel buffer is allocated. Errors are ``DecodeError``s naming the input.
public enum ImageDecoder {
    /// Decodes `bytes`; `name` only labels errors (a path or URL).
    public static func decode(_ bytes: UnsafeRawBufferPointer, name: String,
                              options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
        switch try decodableFormat(bytes, name: name) {
        case .jpeg: try JPEGDecoder.decode(bytes, name: name, options: options)
        case .webp: try WebPDecoder.decode(bytes, name: name, options: options)
        case .gif: try GIFDecoder.decode(bytes, name: name, options: options)
        case .heic, .avif: try HEIFDecoder.decode(bytes, name: name, options: options)
        default: try PNGDecoder.decode(bytes, name: name, options: options)
        }
    }

    /// Decodes `data`; `name` only labels errors (a path or URL).
    public static func decode(_ data: [UInt8], name: String,
                              options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(DecodeError) in try decode(bytes, name: name, options: options) }
        }
        return try result.get()
    }

    /// Maps the file and decodes it; errors name `path`.
    public static func decode(fileAt path: String,
                              options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
        let file = try MappedFile(path: path)
        return try file.withUnsafeBytes { (bytes) throws(DecodeError) in try decode(bytes, name: path, options: options) }
    }

    /// Reads a whole file, for callers that need the bytes too (hashing, then decoding); errors name `path`.
    public static func readFile(atPath path: String) throws(DecodeError) -> [UInt8] {
        try FileBytes.read(path)
    }

    /// The header facts (format, size, pixel format, orientation) without decoding pixels. The
    /// pixel-count guard applies; the others concern decoding.
    public static func probe(_ data: [UInt8], name: String,
                             options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageInfo {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(DecodeError) -> ImageInfo in try probe(bytes, name: name, options: options) }
        }
        return try result.get()
    }

    /// The header facts of bytes held elsewhere (a ``MappedFile``); `name` only labels errors.
    public static func probe(_ bytes: UnsafeRawBufferPointer, name: String,
                             options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageInfo {
        switch try decodableFormat(bytes, name: name) {
        case .jpeg: try JPEGDecoder.probe(bytes, name: name, options: options)
        case .webp: try WebPDecoder.probe(bytes, name: name, options: options)
        case .gif: try GIFDecoder.probe(bytes, name: name, options: options)
        case .heic, .avif: try HEIFDecoder.probe(bytes, name: name, options: options)
        default: try PNGDecoder.probe(bytes, name: name, options: options)
        }
    }

    /// Reads the file's header facts; errors name `path`.
    public static func probe(fileAt path: String,
                             options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageInfo {
        let file = try MappedFile(path: path)
        return try file.withUnsafeBytes { (bytes) throws(DecodeError) in try probe(bytes, name: path, options: options) }
    }

    private static func decodableFormat(_ bytes: UnsafeRawBufferPointer, name: String) throws(DecodeError) -> ImageFormat {
        guard let format = ImageFormat.sniff(bytes) else { throw .notAnImage(name: name) }
        guard format.isDecodable else {
            throw .unsupported(name: name, reason: "\(format.rawValue.uppercased()) is not decoded (JPEG, PNG, WebP, GIF, HEIC and AVIF only)")
        }
        return format
    }
}
