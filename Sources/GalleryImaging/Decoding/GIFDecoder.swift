import CCodecs

/// GIF through giflib: the first image, composited on a transparent canvas the size of the logical
/// screen (its transparent index left transparent, the local colour table used when it has one, an
/// interlaced frame's rows put back in order). Decoded at full size; the resampler reduces it.
enum GIFDecoder {
    struct Session {
        let ctx: OpaquePointer
        let header: fg_gif_header
        let name: String

        func fail(_ status: fg_status) -> DecodeError {
            decodeError(status, name: name, message: fg_gif_message(ctx), width: header.width, height: header.height)
        }

        var pixelFormat: PixelFormat { header.channels == 4 ? .rgba8 : .rgb8 }
    }

    static func withHeader<R>(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions,
                              _ body: (Session) throws(DecodeError) -> R) throws(DecodeError) -> R {
        guard let ctx = fg_gif_create() else {
            throw .tooLarge(name: name, width: 0, height: 0, limit: "out of memory for a GIF context")
        }
        defer { fg_gif_destroy(ctx) }
        var header = fg_gif_header()
        var limits = fg_limits(options)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = fg_gif_read_header(ctx, base, bytes.count, &limits, &header)
        let session = Session(ctx: ctx, header: header, name: name)
        guard status == FG_OK else { throw session.fail(status) }
        return try body(session)
    }

    static func probe(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> ImageInfo {
        try withHeader(bytes, name: name, options: options) { session throws(DecodeError) in
            ImageInfo(format: .gif, width: Int(session.header.width), height: Int(session.header.height),
                      pixelFormat: session.pixelFormat, orientation: .up,
                      isProgressive: session.header.interlaced != 0)
        }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, name: String, options: DecodeOptions) throws(DecodeError) -> DecodedImage {
        try withHeader(bytes, name: name, options: options) { session throws(DecodeError) in
            let (w, h) = (Int(session.header.width), Int(session.header.height))
            let format = session.pixelFormat
            try checkDecodedBytes(width: w, height: h, channels: format.channels, options: options,
                                  name: name, sourceWidth: w, sourceHeight: h)
            var status = FG_OK
            let bitmap = Bitmap(width: w, height: h, format: format) { buffer in
                status = fg_gif_read(session.ctx, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                     w * format.channels)
            }
            guard status == FG_OK else { throw session.fail(status) }
            return DecodedImage(bitmap: bitmap, format: .gif, sourceWidth: w, sourceHeight: h, orientation: .up,
                                scaleDenominator: 1, scansRead: nil, usedFastPath: false)
        }
    }
}
