import CCodecs

/// Turns a CCodecs status into the layer's typed error, keeping the codec's message as the reason.
func decodeError(_ status: fg_status, name: String, message: UnsafePointer<CChar>?,
                 width: UInt32, height: UInt32) -> DecodeError {
    let text = message.map { String(cString: $0) } ?? "unknown error"
    switch status {
    case FG_ERR_TRUNCATED:
        return .truncated(name: name)
    case FG_ERR_UNSUPPORTED:
        return .unsupported(name: name, reason: text)
    case FG_ERR_TOO_LARGE:
        return .tooLarge(name: name, width: Int(width), height: Int(height), limit: text)
    case FG_ERR_NO_MEMORY:
        return .tooLarge(name: name, width: Int(width), height: Int(height), limit: "out of memory: \(text)")
    case FG_ERR_USAGE:
        return .corrupt(name: name, reason: "decoder misuse (a bug): \(text)")
    default:
        return .corrupt(name: name, reason: text)
    }
}

extension fg_limits {
    /// The C view of the guards in `options`.
    init(_ options: DecodeOptions) {
        self.init(max_pixels: UInt64(max(options.maxPixels, 0)),
                  max_scans: UInt32(clamping: max(options.maxScans, 0)),
                  max_memory: UInt64(max(options.maxCodecMemory, 0)),
                  allow_truncated: options.allowTruncated ? 1 : 0)
    }
}

/// Refuses an output buffer over `options.maxDecodedBytes`, before it is allocated.
func checkDecodedBytes(width: Int, height: Int, channels: Int, options: DecodeOptions, name: String,
                       sourceWidth: Int, sourceHeight: Int) throws(DecodeError) {
    let (bytes, overflow) = (width * channels).multipliedReportingOverflow(by: height)
    if overflow || (options.maxDecodedBytes > 0 && bytes > options.maxDecodedBytes) {
        throw .tooLarge(name: name, width: sourceWidth, height: sourceHeight,
                        limit: "decoded bitmap \(width)x\(height)x\(channels) is over \(options.maxDecodedBytes) bytes")
    }
}

/// The largest of 8, 4 and 2 whose reduced size, ceil(size / d) on each axis, still covers `minimum`;
/// 1 when none does or when `minimum` is the whole source. The Adam7 grid stride of an interlaced PNG's
/// early passes, and the reduction libwebp's rescaler is asked for.
func halvingReduction(sourceWidth: Int, sourceHeight: Int, minimum: (width: Int, height: Int)) -> Int {
    guard minimum.width < sourceWidth || minimum.height < sourceHeight else { return 1 }
    for d in [8, 4, 2] {
        let w = (sourceWidth + d - 1) / d, h = (sourceHeight + d - 1) / d
        if w >= minimum.width && h >= minimum.height { return d }
    }
    return 1
}
