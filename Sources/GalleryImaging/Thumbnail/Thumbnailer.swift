/// Turns encoded image bytes into an upright sRGB thumbnail: decode reduced in the codec (DCT scaling,
/// DC-only progressive scans, early Adam7 passes, PNG rows box-reduced), resample to the exact size,
/// convert from the file's colour profile to sRGB, apply the EXIF orientation once, and encode
/// (``ThumbnailFormat``: by default JPEG, or PNG when the image has alpha). The thumbnail carries no
/// profile: it needs none.
///
/// Orientation is applied after scaling, on the small bitmap, which is both cheaper and exactly
/// equivalent: the scaler works on each axis independently of the other.
public struct Thumbnailer: Sendable {
    /// Longest edge of the thumbnail in pixels; smaller sources are never upscaled.
    public var longestEdge: Int
    /// JPEG quality (1...100) for images without alpha.
    public var jpegQuality: Int
    /// The encoding; `.auto` is PNG with alpha, else JPEG.
    public var format: ThumbnailFormat
    /// WebP quality (0...100). The default, 85, matches JPEG at quality 85 (PSNR and SSIM) on 256 px
    /// thumbnails of real photos in about 26% fewer bytes (Scripts/bench-webp prints the comparison).
    public var webpQuality: Int
    /// AVIF quality (0...100, libheif's scale for aom).
    public var avifQuality: Int
    /// aom's speed (0...9): the default keeps a 256 px AVIF within 3x the CPU of its JPEG encode
    /// (Scripts/bench-avif prints both, with bytes, PSNR and SSIM).
    public var avifSpeed: Int
    /// Guards and fast-path switches for the decode; its `target` is set from `longestEdge`.
    public var decodeOptions: DecodeOptions
    /// The scaler from the codec-reduced size to the exact thumbnail size.
    public var resampler: Resampler

    /// A thumbnailer for `longestEdge`-pixel thumbnails at JPEG quality `jpegQuality`.
    public init(longestEdge: Int = 256, jpegQuality: Int = 85, format: ThumbnailFormat = .auto,
                webpQuality: Int = 85, avifQuality: Int = 75, avifSpeed: Int = 9,
                decodeOptions: DecodeOptions = DecodeOptions(), resampler: Resampler = .default) {
        precondition(longestEdge > 0, "a thumbnail has at least one pixel")
        self.longestEdge = longestEdge
        self.jpegQuality = jpegQuality
        self.format = format
        self.webpQuality = webpQuality
        self.avifQuality = avifQuality
        self.avifSpeed = avifSpeed
        self.decodeOptions = decodeOptions
        self.resampler = resampler
    }

    /// Decodes `bytes` (named `name` in errors) and returns the upright thumbnail bitmap.
    public func render(_ bytes: UnsafeRawBufferPointer, name: String) throws(ImagingError) -> Bitmap {
        var options = decodeOptions
        options.target = .longestEdge(longestEdge)
        let decoded: DecodedImage
        do { decoded = try ImageDecoder.decode(bytes, name: name, options: options) } catch { throw .decode(error) }
        return render(decoded)
    }

    /// Scales an already decoded image to the thumbnail size (from its source size, in stored
    /// orientation), converts it to sRGB and makes it upright.
    public func render(_ decoded: DecodedImage) -> Bitmap {
        DecodePlan(size: .longestEdge(longestEdge), options: decodeOptions).finish(decoded, resampler: resampler)
    }

    /// Encodes a thumbnail bitmap in ``format`` (with `.auto`: PNG when it has alpha, JPEG otherwise).
    public func encode(_ bitmap: Bitmap, name: String) throws(ImagingError) -> EncodedImage {
        do {
            switch format.resolved(hasAlpha: bitmap.format.hasAlpha) {
            case .png: return EncodedImage(bytes: try ImageEncoder.encodePNG(bitmap), format: .png)
            case .webp: return EncodedImage(bytes: try ImageEncoder.encodeWebP(bitmap, quality: webpQuality), format: .webp)
            case .avif:
                return EncodedImage(bytes: try ImageEncoder.encodeAVIF(bitmap, quality: avifQuality, speed: avifSpeed), format: .avif)
            default: return EncodedImage(bytes: try ImageEncoder.encodeJPEG(bitmap, quality: jpegQuality), format: .jpeg)
            }
        } catch {
            throw .encode(name: name, error)
        }
    }

    /// Decode, scale, orient and encode in one call.
    public func thumbnail(_ bytes: UnsafeRawBufferPointer, name: String) throws(ImagingError) -> EncodedImage {
        try encode(try render(bytes, name: name), name: name)
    }

    /// Maps the file at `path` and makes its thumbnail; errors name `path`.
    public func thumbnail(fileAt path: String) throws(ImagingError) -> EncodedImage {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw .decode(error) }
        return try file.withUnsafeBytes { (bytes) throws(ImagingError) in try thumbnail(bytes, name: path) }
    }

    /// Decode, scale, orient and encode in one call.
    public func thumbnail(_ bytes: [UInt8], name: String) throws(ImagingError) -> EncodedImage {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(ImagingError) in try thumbnail(raw, name: name) }
        }
        return try result.get()
    }
}

/// Encoded image bytes and their format.
public struct EncodedImage: Sendable, Hashable {
    /// The encoded bytes.
    public let bytes: [UInt8]
    /// Their format (`.jpeg`, `.png`, `.webp` or `.avif`).
    public let format: ImageFormat

    /// The usual file name extension for the format (`jpg`, `png`, `webp`).
    public var fileExtension: String { format.fileExtension }
}
