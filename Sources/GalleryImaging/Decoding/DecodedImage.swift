/// A decoded image plus what the thumbnailer needs to finish the job: the source size, the reduction
/// already applied, and the EXIF orientation (reported, never applied here).
public struct DecodedImage: Sendable {
    /// The pixels as stored in the file (not yet oriented), possibly reduced.
    public let bitmap: Bitmap
    /// The file's format.
    public let format: ImageFormat
    /// Size of the full image as stored, before any reduction.
    public let sourceWidth: Int
    /// Height of the full image as stored, before any reduction.
    public let sourceHeight: Int
    /// How to turn the stored pixels upright; apply once, after scaling (`Bitmap.oriented(_:)`).
    public let orientation: Orientation
    /// The reduction applied while decoding: 1, 2, 4 or 8 (JPEG DCT scaling, or the Adam7 grid
    /// stride of an interlaced PNG over the memory bound), 2 to 64 (a PNG's box factor), or for a HEIC's
    /// thumbnail item the source width over the item's (rounded down). The bitmap is about the source
    /// size times ``scaleNumerator`` divided by it.
    public let scaleDenominator: Int
    /// The numerator of the reduction: 1, except a JPEG scaled by M/8 in its DCT (3/8 or 5/8, where
    /// 1/2 or the full size would be far larger than the target).
    public let scaleNumerator: Int
    /// Scans the JPEG decoder consumed (progressive files have several); nil for PNG.
    public let scansRead: Int?
    /// Whether a fast path (DC-only progressive JPEG, early Adam7 passes, a HEIF thumbnail item)
    /// produced the bitmap.
    public let usedFastPath: Bool
    /// The colour profile the file came with (JPEG APP2 `ICC_PROFILE`, PNG `iCCP`, `sRGB` or
    /// `gAMA`/`cHRM`, WebP `ICCP`, HEIF `colr`); nil when it declares none or ``DecodeOptions/readsColorProfiles`` is off.
    /// The bitmap keeps its pixels in this profile (except CMYK, converted while decoding): see
    /// ``isSRGB`` and ``convertedToSRGB(_:)``.
    public let colorProfile: ColorProfile?
    /// What the decoder tolerated, for a debug log (a missing JPEG end marker, an unusable profile).
    public let notes: [DecodeNote]
    /// The transform from ``colorProfile`` to sRGB for the bitmap's pixels; nil when they are sRGB.
    let transform: ColorTransform?

    init(bitmap: Bitmap, format: ImageFormat, sourceWidth: Int, sourceHeight: Int, orientation: Orientation,
         scaleDenominator: Int, scaleNumerator: Int = 1, scansRead: Int?, usedFastPath: Bool, colorProfile: ColorProfile? = nil,
         transform: ColorTransform? = nil, notes: [DecodeNote] = []) {
        self.bitmap = bitmap
        self.format = format
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.orientation = orientation
        self.scaleDenominator = scaleDenominator
        self.scaleNumerator = scaleNumerator
        self.scansRead = scansRead
        self.usedFastPath = usedFastPath
        self.colorProfile = colorProfile
        self.transform = transform
        self.notes = notes
    }
}

/// What the header says, without decoding pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The file's format.
    public let format: ImageFormat
    /// Size as stored, before orientation.
    public let width: Int
    /// Height as stored, before orientation.
    public let height: Int
    /// The pixel format a full decode produces (CMYK JPEG decodes to `.rgb8`).
    public let pixelFormat: PixelFormat
    /// The EXIF orientation (`.up` when there is none).
    public let orientation: Orientation
    /// Progressive JPEG or Adam7-interlaced PNG.
    public let isProgressive: Bool
}

extension DecodedImage {
    /// For a JPEG reduced in its DCT, the pixels of ``bitmap`` the picture spans: each of them stands for
    /// `scaleDenominator / scaleNumerator` source pixels, and libjpeg rounds the size up, so a last column or
    /// row can stand for part of one (501 rows at 1/2 give 251 spanning 250.5). nil otherwise.
    package var dctExtent: (width: Double, height: Double)? {
        guard format == .jpeg, scaleDenominator > scaleNumerator else { return nil }
        let ratio = Double(scaleNumerator) / Double(scaleDenominator)
        return (Double(sourceWidth) * ratio, Double(sourceHeight) * ratio)
    }
}
