/// Decodes JPEG and PNG into a ``Bitmap``, reduced in the codec when the target allows, with the
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

    /// Reads the whole file and decodes it; errors name `path`.
    public static func decode(fileAt path: String,
                              options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> DecodedImage {
        try decode(FileBytes.read(path), name: path, options: options)
    }

    /// The header facts (format, size, pixel format, orientation) without decoding pixels. The
    /// pixel-count guard applies; the others concern decoding.
    public static func probe(_ data: [UInt8], name: String,
                             options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageInfo {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(DecodeError) -> ImageInfo in
                switch try decodableFormat(bytes, name: name) {
                case .jpeg: try JPEGDecoder.probe(bytes, name: name, options: options)
                default: try PNGDecoder.probe(bytes, name: name, options: options)
                }
            }
        }
        return try result.get()
    }

    /// Reads the file's header facts; errors name `path`.
    public static func probe(fileAt path: String,
                             options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> ImageInfo {
        try probe(FileBytes.read(path), name: path, options: options)
    }

    private static func decodableFormat(_ bytes: UnsafeRawBufferPointer, name: String) throws(DecodeError) -> ImageFormat {
        guard let format = ImageFormat.sniff(bytes) else { throw .notAnImage(name: name) }
        guard format.isDecodable else {
            throw .unsupported(name: name, reason: "\(format.rawValue.uppercased()) is not decoded (JPEG and PNG only)")
        }
        return format
    }
}
