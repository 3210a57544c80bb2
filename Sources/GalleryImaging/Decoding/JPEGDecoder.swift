import CCodecs

/// JPEG through the two-phase C shim: parse the header and check the guards, choose the DCT scale,
/// allocate the bitmap, then let libjpeg write straight into it.
enum JPEGDecoder {
    /// An open decode: the C context plus the parsed header. Lives only inside `withHeader`.
    struct Session {
        let ctx: OpaquePointer
        let header: fg_jpeg_header
        let name: String

        func fail(_ status: fg_status) -> DecodeError {
            decodeError(status, name: name, message: fg_jpeg_message(ctx), width: header.width, height: header.height)
        }

        var pixelFormat: PixelFormat { header.colorspace == Int32(FG_JCS_GRAY.rawValue) ? .gray8 : .rgb8 }

        var isCMYK: Bool {
            header.colorspace == Int32(FG_JCS_CMYK.rawValue) || header.colorspace == Int32(FG_JCS_YCCK.rawValue)
        }

        /// The embedded ICC profile (APP2 `ICC_PROFILE` segments, joined by libjpeg), if any.
        var profile: ColorProfile? {
            guard let icc = header.icc, header.icc_length > 0 else { return nil }
            return .icc(Array(UnsafeBufferPointer(start: icc, count: Int(header.icc_length))))
        }

        /// The layout a profile converts: CMYK as libjpeg outputs it (inverted when an Adobe APP14
        /// marker is present, as Photoshop writes it), else the decoded pixel format.
        var colorLayout: ColorLayout {
            guard isCMYK else { return ColorLayout(pixelFormat) }
            return header.adobe_transform >= 0 ? .cmykInverted : .cmyk
        }
    }

    /// Parses the header of `bytes` and runs `body` with it; the context is freed afterwards.
    static func withHeader<R>(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions,
                              _ body: (Session) throws(DecodeError) -> R) throws(DecodeError) -> R {
        guard let ctx = fg_jpeg_create() else {
            throw .tooLarge(name: name, width: 0, height: 0, limit: "out of memory for a JPEG context")
        }
        defer { fg_jpeg_destroy(ctx) }
        var header = fg_jpeg_header()
        var limits = fg_limits(options)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = fg_jpeg_read_header(ctx, base, bytes.count, &limits, &header)
        let session = Session(ctx: ctx, header: header, name: name)
        guard status == FG_OK else { throw session.fail(status) }
        return try body(session)
    }

    static func probe(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> ImageInfo {
        try withHeader(bytes, name: name, options: options) { session throws(DecodeError) in
            ImageInfo(format: .jpeg, width: Int(session.header.width), height: Int(session.header.height),
                      pixelFormat: session.pixelFormat,
                      orientation: ExifReader.orientation(inJPEG: bytes) ?? .up,
                      isProgressive: session.header.progressive != 0)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try withHeader(bytes, name: name, options: options) { session throws(DecodeError) in
            let (sw, sh) = (Int(session.header.width), Int(session.header.height))
            let want = options.target.minimumSize(sourceWidth: sw, sourceHeight: sh)
            let scale = try chooseScale(session, minimum: want)
            var size = (w: UInt32(0), h: UInt32(0))
            var status = fg_jpeg_output_size(session.ctx, Int32(scale.numerator), Int32(scale.denominator), &size.w, &size.h)
            guard status == FG_OK else { throw session.fail(status) }
            let format = session.pixelFormat
            let profile = options.readsColorProfiles ? session.profile : nil
            let color = profile?.transformToSRGB(for: session.colorLayout) ?? (transform: nil, note: nil)
            // CMYK with a usable profile decodes to CMYK and converts here: a Bitmap has no CMYK.
            let cmykTransform = session.isCMYK ? color.transform : nil
            if cmykTransform != nil { fg_jpeg_keep_cmyk(session.ctx) }
            let channels = cmykTransform == nil ? format.channels : 4
            // Checked before fg_jpeg_start, which for a progressive file reads every scan.
            try checkDecodedBytes(width: Int(size.w), height: Int(size.h), channels: channels,
                                  options: options, name: name, sourceWidth: sw, sourceHeight: sh)
            var output = fg_jpeg_output()
            status = fg_jpeg_start(session.ctx, Int32(scale.numerator), Int32(scale.denominator), options.useFastPaths ? 1 : 0, &output)
            guard status == FG_OK else { throw session.fail(status) }
            guard Int(output.channels) == channels, output.width == size.w, output.height == size.h else {
                throw .corrupt(name: name, reason: "libjpeg output \(output.width)x\(output.height)x\(output.channels) differs from the plan")
            }
            let (w, h) = (Int(size.w), Int(size.h))
            var bitmap: Bitmap
            if let cmykTransform {
                let raw = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, initialized in
                    status = fg_jpeg_read(session.ctx, buffer.baseAddress, w * 4)
                    initialized = buffer.count
                }
                guard status == FG_OK else { throw session.fail(status) }
                bitmap = raw.withUnsafeBytes { cmykTransform.apply($0, bytesPerRow: w * 4, width: w, height: h) }
            } else {
                bitmap = Bitmap(width: w, height: h, format: format) { buffer in
                    status = fg_jpeg_read(session.ctx, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), w * format.channels)
                }
                guard status == FG_OK else { throw session.fail(status) }
            }
            var notes = color.note.map { [$0] } ?? []
            if fg_jpeg_missing_eoi(session.ctx) != 0 { notes.append(.missingEndMarker) }
            return DecodedImage(bitmap: bitmap, format: .jpeg, sourceWidth: sw, sourceHeight: sh,
                                orientation: ExifReader.orientation(inJPEG: bytes) ?? .up,
                                scaleDenominator: scale.denominator, scaleNumerator: scale.numerator,
                                scansRead: Int(fg_jpeg_scans_read(session.ctx)),
                                usedFastPath: output.dc_only != 0,
                                colorProfile: profile,
                                transform: session.isCMYK ? nil : color.transform,
                                notes: notes)
        }
    }

    /// The smallest DCT scale whose output (as libjpeg computes it) still covers `minimum`: 1/8, 1/4,
    /// 3/8, 1/2, 5/8, else the full size. libjpeg-turbo has SIMD code for 1/8, 1/4, 1/2 and 1/1 only;
    /// 3/8 and 5/8 cost about as much CPU as the next SIMD scale up (djpeg on a 20 MP photo: 3/8 61 ms
    /// against 1/2 58 ms, 5/8 84 ms against 1/1 76 ms) and leave 40-60% fewer pixels to hold and
    /// resample: for a 2048 px display picture of a 24 MP photo, 40 MB less a worker. 3/4 and 7/8 cost
    /// 25-65% more than 1/1 and are never chosen.
    /// Where 3/8 would do and the 1/2 image is at most ``halfScaleLimit`` pixels, 1/2 is taken instead: for
    /// a small photo the SIMD decode saves more than the larger resample costs (thumbnails of 2,000 photos of
    /// 620-820 px: 2% less CPU), and its memory is small either way.
    /// A full-size target always decodes at 1/1: a 1x1 image reduced "to 1x1" would be a different
    /// (DC-only) image.
    static func chooseScale(_ session: Session, minimum: (width: Int, height: Int)) throws(DecodeError)
        -> (numerator: Int, denominator: Int) {
        guard minimum.width < Int(session.header.width) || minimum.height < Int(session.header.height) else { return (1, 1) }
        for (numerator, denominator) in [(1, 8), (1, 4), (3, 8), (1, 2), (5, 8)] {
            var w: UInt32 = 0, h: UInt32 = 0
            let status = fg_jpeg_output_size(session.ctx, Int32(numerator), Int32(denominator), &w, &h)
            guard status == FG_OK else { throw session.fail(status) }
            guard Int(w) >= minimum.width && Int(h) >= minimum.height else { continue }
            if numerator == 3 {
                var hw: UInt32 = 0, hh: UInt32 = 0
                let half = fg_jpeg_output_size(session.ctx, 1, 2, &hw, &hh)
                guard half == FG_OK else { throw session.fail(half) }
                if Int(hw) * Int(hh) <= halfScaleLimit { return (1, 2) }
            }
            return (numerator, denominator)
        }
        return (1, 1)
    }

    /// The most pixels a 1/2-scale decode may have to be chosen over 3/8 (see ``chooseScale(_:minimum:)``).
    static let halfScaleLimit = 1 << 20
}
