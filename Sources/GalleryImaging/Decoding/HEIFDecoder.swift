import CCodecs
import CHeif

/// HEIC and AVIF through libheif (libde265 for HEVC, dav1d or aom for AV1). The primary image is
/// decoded with the container's transformations (`irot`, `imir`, `clap`) applied by libheif, so the
/// reported orientation is always `.up`: HEIF makes those boxes authoritative, and a phone's EXIF
/// orientation repeats them (applying both would turn the photo twice).
///
/// The embedded-thumbnail fast path: when the file carries a thumbnail item at least as large as the
/// target, that item is decoded instead of the 12-48 MP primary image. Otherwise the primary image is
/// decoded at full size (libheif has no reduced decode) and the resampler does the rest. 10- and
/// 12-bit images are rounded to 8 bits; the `colr` box's ICC profile or nclx primaries and transfer
/// become the ``ColorProfile``. A file libheif refuses only because its `ftyp` lists the codec's brand
/// as the major brand alone (libavif reads those) is read from a copy with that brand added
/// (``DecodeNote/heifBrandsRepaired``).
enum HEIFDecoder {
    /// A libheif context holding the parsed container; `body` runs with the header read and checked.
    private static func withHeader<T>(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions,
                                      _ body: (OpaquePointer, fg_heif_header) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard let context = fg_heif_create() else { throw .tooLarge(name: name, width: 0, height: 0, limit: "out of memory") }
        defer { fg_heif_destroy(context) }
        var header = fg_heif_header()
        var limits = fg_limits(options)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = fg_heif_read_header(context, base, bytes.count, &limits, &header)
        guard status == FG_OK else {
            throw decodeError(status, name: name, message: fg_heif_message(context), width: header.width, height: header.height)
        }
        return try body(context, header)
    }

    static func format(_ header: fg_heif_header) -> ImageFormat { header.compression == Int32(FG_HEIF_AV1.rawValue) ? .avif : .heic }

    static func pixelFormat(_ header: fg_heif_header) -> PixelFormat { header.has_alpha != 0 ? .rgba8 : .rgb8 }

    /// The `colr` declaration: an ICC profile, or nclx code points with their primaries.
    static func profile(_ header: fg_heif_header) -> ColorProfile? {
        switch header.profile {
        case Int32(FG_HEIF_PROFILE_ICC.rawValue) where header.icc != nil && header.icc_length > 0:
            return .icc(Array(UnsafeBufferPointer(start: header.icc, count: Int(header.icc_length))))
        case Int32(FG_HEIF_PROFILE_NCLX.rawValue):
            let c = header.nclx_chromaticities
            return .nclx(primaries: Int(header.nclx_primaries), transfer: Int(header.nclx_transfer),
                         chromaticities: [c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7].map(Double.init))
        default:
            return nil
        }
    }

    static func probe(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> ImageInfo {
        try withHeader(bytes, name: name, options: options) { _, header in
            ImageInfo(format: format(header), width: Int(header.width), height: Int(header.height),
                      pixelFormat: pixelFormat(header), orientation: .up, isProgressive: false)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try withHeader(bytes, name: name, options: options) { (context, header) throws(DecodeError) in
            let (sw, sh) = (Int(header.width), Int(header.height))
            let minimum = options.target.minimumSize(sourceWidth: sw, sourceHeight: sh)
            var (w, h, isThumbnail): (UInt32, UInt32, Int32) = (0, 0, 0)
            let chose = fg_heif_choose(context, UInt32(minimum.width), UInt32(minimum.height),
                                       options.useFastPaths ? 1 : 0, &w, &h, &isThumbnail)
            guard chose == FG_OK else {
                throw decodeError(chose, name: name, message: fg_heif_message(context), width: header.width, height: header.height)
            }
            let format = pixelFormat(header)
            try checkDecodedBytes(width: Int(w), height: Int(h), channels: format.channels, options: options,
                                  name: name, sourceWidth: sw, sourceHeight: sh)
            var status = FG_OK
            let bitmap = Bitmap(width: Int(w), height: Int(h), format: format) { buffer in
                status = fg_heif_decode(context, Int32(format.channels),
                                        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), Int(w) * format.channels)
            }
            guard status == FG_OK else {
                throw decodeError(status, name: name, message: fg_heif_message(context), width: header.width, height: header.height)
            }
            let profile = options.readsColorProfiles ? profile(header) : nil
            let color = profile?.transformToSRGB(for: ColorLayout(format)) ?? (transform: nil, note: nil)
            return DecodedImage(bitmap: bitmap, format: self.format(header), sourceWidth: sw, sourceHeight: sh,
                                orientation: .up, scaleDenominator: max(1, sw / max(Int(w), 1)), scansRead: nil,
                                usedFastPath: isThumbnail != 0, colorProfile: profile,
                                transform: color.transform,
                                notes: (header.repaired_brands != 0 ? [.heifBrandsRepaired] : []) + (color.note.map { [$0] } ?? []))
        }
    }

    /// Whether libheif can decode HEVC (HEIC) and AV1 (AVIF) here; Debian 13 ships them as plugins.
    static var decoders: (hevc: Bool, av1: Bool) {
        (fg_heif_can_decode(Int32(FG_HEIF_HEVC.rawValue)) != 0, fg_heif_can_decode(Int32(FG_HEIF_AV1.rawValue)) != 0)
    }
}
