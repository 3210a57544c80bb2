import CCodecs

/// PNG through the two-phase C shim. Images far larger than the target are box-reduced row by row
/// as they are decoded, by the resampler's own box factor, so the full-size image is never held and
/// the resampler's shrink is already done. Images whose filtered data fits 64 MiB (and
/// maxCodecMemory) are inflated in one call by libdeflate and unfiltered by the shim instead of
/// through libpng's rows (see ``Inflation``): the same pixels, about 1.6x faster; Adam7 images are
/// put back together row by row from their passes on the way. Only an Adam7 image over 128 MiB
/// is assembled from its early passes alone (1, 3 or 5 of the 7), and only when they still have
/// twice the target's pixels on each edge: one pixel of every 8x8 block stands for the block, which
/// aliases unless the resampler still has a 2x shrink left to average over.
enum PNGDecoder {
    struct Session {
        let ctx: OpaquePointer
        let header: fg_png_header
        let name: String

        func fail(_ status: fg_status) -> DecodeError {
            decodeError(status, name: name, message: fg_png_message(ctx), width: header.width, height: header.height)
        }

        var pixelFormat: PixelFormat {
            switch header.channels {
            case 1: .gray8
            case 2: .grayAlpha8
            case 3: .rgb8
            default: .rgba8
            }
        }

        /// The colour chunks before IDAT: iCCP, else sRGB, else gAMA (+ cHRM).
        var profile: ColorProfile? {
            if let icc = header.icc, header.icc_length > 0 {
                return .icc(Array(UnsafeBufferPointer(start: icc, count: Int(header.icc_length))))
            }
            if header.srgb != 0 { return .sRGB }
            guard header.gamma > 0 else { return nil }
            let chromaticities = header.has_chrm != 0
                ? withUnsafeBytes(of: header.chrm) { Array($0.bindMemory(to: Double.self)) }
                : nil
            return .pngGamma(header.gamma, chromaticities: chromaticities)
        }

        /// The EXIF orientation from an eXIf chunk before IDAT, if any.
        var orientation: Orientation {
            guard let exif = header.exif, header.exif_length > 0 else { return .up }
            return ExifReader.orientation(inTIFF: UnsafeRawBufferPointer(start: exif, count: Int(header.exif_length))) ?? .up
        }
    }

    static func withHeader<R>(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions,
                              _ body: (Session) throws(DecodeError) -> R) throws(DecodeError) -> R {
        guard let ctx = fg_png_create() else {
            throw .tooLarge(name: name, width: 0, height: 0, limit: "out of memory for a PNG context")
        }
        defer { fg_png_destroy(ctx) }
        var header = fg_png_header()
        var limits = fg_limits(options)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = fg_png_read_header(ctx, base, bytes.count, &limits, &header)
        let session = Session(ctx: ctx, header: header, name: name)
        guard status == FG_OK else { throw session.fail(status) }
        return try body(session)
    }

    static func probe(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> ImageInfo {
        try withHeader(bytes, name: name, options: options) { session throws(DecodeError) in
            ImageInfo(format: .png, width: Int(session.header.width), height: Int(session.header.height),
                      pixelFormat: session.pixelFormat, orientation: session.orientation,
                      isProgressive: session.header.interlaced != 0)
        }
    }

    /// How the image data is inflated: the whole IDAT stream at once (libdeflate) when its filtered
    /// data fits the bound in png_internal.h, else libpng's rows; or
    /// libpng's rows always. Both give the same pixels (the tests compare them).
    enum Inflation {
        case wholeStreamWhenItFits
        case libpngRows
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try decode(bytes, name: name, options: options, inflation: .wholeStreamWhenItFits).image
    }

    /// The decode, and whether it went through the whole-stream path.
    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions,
                       inflation: Inflation) throws(DecodeError) -> (image: DecodedImage, wholeStream: Bool) {
        try withHeader(bytes, name: name, options: options) { session throws(DecodeError) in
            fg_png_set_whole_stream(session.ctx, inflation == .wholeStreamWhenItFits ? 1 : 0)
            let (sw, sh) = (Int(session.header.width), Int(session.header.height))
            let minimum = options.target.minimumSize(sourceWidth: sw, sourceHeight: sh)
            let interlaced = session.header.interlaced != 0
            // Whether the Adam7 image can be box-reduced row by row; the same answer whichever
            // ``Inflation``, so the two give the same geometry and pixels.
            let reducible = !interlaced || fg_png_deinterlace_fits(session.ctx) != 0
            let stride = options.useFastPaths && !reducible
                ? halvingReduction(sourceWidth: sw, sourceHeight: sh, minimum: (2 * minimum.width, 2 * minimum.height))
                : 1
            let factor = options.useFastPaths && reducible
                ? boxFactor(sourceWidth: sw, sourceHeight: sh, minimum: minimum)
                : 1
            let reduction = max(stride, factor)
            let (w, h) = ((sw + reduction - 1) / reduction, (sh + reduction - 1) / reduction)
            let format = session.pixelFormat
            try checkDecodedBytes(width: w, height: h, channels: format.channels, options: options,
                                  name: name, sourceWidth: sw, sourceHeight: sh)
            var status = FG_OK
            let bitmap = Bitmap(width: w, height: h, format: format) { buffer in
                let dst = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                status = factor > 1 ? fg_png_read_reduced(session.ctx, Int32(factor), dst, w * format.channels)
                    : stride > 1 ? fg_png_read_subsampled(session.ctx, Int32(stride), dst, w * format.channels)
                    : fg_png_read(session.ctx, dst, w * format.channels)
            }
            guard status == FG_OK else { throw session.fail(status) }
            let profile = options.readsColorProfiles ? session.profile : nil
            let color = profile?.transformToSRGB(for: ColorLayout(format)) ?? (transform: nil, note: nil)
            let image = DecodedImage(bitmap: bitmap, format: .png, sourceWidth: sw, sourceHeight: sh,
                                     orientation: session.orientation, scaleDenominator: reduction,
                                     scansRead: nil, usedFastPath: reduction > 1, colorProfile: profile,
                                     transform: color.transform, notes: color.note.map { [$0] } ?? [])
            return (image, fg_png_used_whole_stream(session.ctx) != 0)
        }
    }

    /// The box factor the default resampler would shrink by on its way to `minimum` (the smaller of
    /// the two axes'), so the reduced image still leaves the filter its residual; 1 when below 2.
    static func boxFactor(sourceWidth: Int, sourceHeight: Int, minimum: (width: Int, height: Int)) -> Int {
        guard minimum.width < sourceWidth || minimum.height < sourceHeight else { return 1 }
        let resampler = Resampler.default
        let k = min(resampler.boxFactor(from: sourceWidth, to: max(minimum.width, 1)),
                    resampler.boxFactor(from: sourceHeight, to: max(minimum.height, 1)))
        return min(k, 64)
    }
}
