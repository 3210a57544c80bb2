import CCodecs

/// WebP through libwebp. A still image is reduced in the codec (libwebp's own area-averaging
/// rescaler) by the largest power of two, up to 8, that still covers the target, leaving the final
/// resize to the resampler as JPEG's DCT scaling does; an animation gives its first frame as it shows
/// on the canvas, at canvas size. The EXIF orientation comes from the container's EXIF chunk, the
/// colour profile from its ICCP chunk.
enum WebPDecoder {
    static func header(_ bytes: UnsafeRawBufferPointer, name: String,
                       options: DecodeOptions) throws(DecodeError) -> fg_webp_header {
        var header = fg_webp_header()
        var limits = fg_limits(options)
        var message = [CChar](repeating: 0, count: 256)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = fg_webp_read_header(base, bytes.count, &limits, &header, &message, message.count)
        guard status == FG_OK else {
            throw decodeError(status, name: name, message: message, width: header.width, height: header.height)
        }
        return header
    }

    /// RGBA when the file says it has alpha, else RGB (an animation's canvas included).
    static func pixelFormat(_ header: fg_webp_header) -> PixelFormat { header.has_alpha != 0 ? .rgba8 : .rgb8 }

    /// The orientation in the EXIF chunk (TIFF data; some writers keep JPEG's `Exif\0\0` prefix).
    static func orientation(_ header: fg_webp_header, in bytes: UnsafeRawBufferPointer) -> Orientation {
        let (start, count) = (Int(header.exif_offset), Int(header.exif_length))
        guard count > 0, start >= 0, start + count <= bytes.count else { return .up }
        var exif = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
        if exif.starts(with: Array("Exif\0\0".utf8)) { exif = UnsafeRawBufferPointer(rebasing: exif.dropFirst(6)) }
        return ExifReader.orientation(inTIFF: exif) ?? .up
    }

    /// The ICCP chunk's profile, if the container has one.
    static func profile(_ header: fg_webp_header, in bytes: UnsafeRawBufferPointer) -> ColorProfile? {
        let (start, count) = (Int(header.icc_offset), Int(header.icc_length))
        guard count > 0, start >= 0, start + count <= bytes.count else { return nil }
        return .icc(Array(bytes[start..<(start + count)]))
    }

    static func probe(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> ImageInfo {
        let header = try header(bytes, name: name, options: options)
        return ImageInfo(format: .webp, width: Int(header.width), height: Int(header.height),
                         pixelFormat: pixelFormat(header), orientation: orientation(header, in: bytes),
                         isProgressive: false)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        let header = try header(bytes, name: name, options: options)
        let (sw, sh) = (Int(header.width), Int(header.height))
        let denominator = header.animated != 0 || !options.useFastPaths
            ? 1 : halvingReduction(sourceWidth: sw, sourceHeight: sh,
                                   minimum: options.target.minimumSize(sourceWidth: sw, sourceHeight: sh))
        let (w, h) = ((sw + denominator - 1) / denominator, (sh + denominator - 1) / denominator)
        let format = pixelFormat(header)
        try checkDecodedBytes(width: w, height: h, channels: format.channels, options: options,
                              name: name, sourceWidth: sw, sourceHeight: sh)
        var status = FG_OK
        var message = [CChar](repeating: 0, count: 256)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var input = header
        let bitmap = Bitmap(width: w, height: h, format: format) { buffer in
            status = fg_webp_decode(base, bytes.count, &input, UInt32(w), UInt32(h), Int32(format.channels),
                                    buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                    w * format.channels, &message, message.count)
        }
        guard status == FG_OK else {
            throw decodeError(status, name: name, message: message, width: header.width, height: header.height)
        }
        let profile = options.readsColorProfiles ? profile(header, in: bytes) : nil
        let color = profile?.transformToSRGB(for: ColorLayout(format)) ?? (transform: nil, note: nil)
        return DecodedImage(bitmap: bitmap, format: .webp, sourceWidth: sw, sourceHeight: sh,
                            orientation: orientation(header, in: bytes), scaleDenominator: denominator,
                            scansRead: nil, usedFastPath: denominator > 1, colorProfile: profile,
                            transform: color.transform, notes: color.note.map { [$0] } ?? [])
    }
}
