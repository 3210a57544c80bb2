import CCodecs
import CHeif

/// Encodes a ``Bitmap`` as JPEG (libjpeg), PNG (libpng), WebP (libwebp) or AVIF (libheif with aom), in memory.
public enum ImageEncoder {
    /// JPEG at `quality` (1...100). JPEG has no alpha: `.rgba8` and `.grayAlpha8` are flattened
    /// onto white, the page background thumbnails usually sit on. With `optimizeHuffman` libjpeg
    /// builds per-image Huffman tables (a few % smaller, a bit slower); `progressive` writes
    /// libjpeg's standard progression (which implies optimised tables).
    public static func encodeJPEG(_ bitmap: Bitmap, quality: Int = 85, optimizeHuffman: Bool = false,
                                  progressive: Bool = false) throws(EncodeError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .invalidParameter("JPEG quality \(quality) is outside 1...100") }
        return try encode(bitmap, format: "JPEG") { src, out, length, message in
            fg_jpeg_encode(src, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.bytesPerRow,
                           Int32(bitmap.format.channels), Int32(quality), optimizeHuffman ? 1 : 0, progressive ? 1 : 0,
                           out, length, message, 256)
        }
    }

    /// Lossless PNG of any ``PixelFormat`` (8 bits per channel, colour type from the format), with adaptive
    /// filters and an sRGB chunk. `zlibLevel` (0...9) trades file size for time: nil is libpng's default (6);
    /// 1 or 2 compress a photograph several times faster into a file 10-15% larger.
    public static func encodePNG(_ bitmap: Bitmap, zlibLevel: Int? = nil) throws(EncodeError) -> [UInt8] {
        guard let level = zlibLevel else {
            return try encode(bitmap, format: "PNG") { src, out, length, message in
                fg_png_encode(src, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.bytesPerRow,
                              Int32(bitmap.format.channels), out, length, message, 256)
            }
        }
        guard (0...9).contains(level) else { throw .invalidParameter("PNG zlib level \(level) is outside 0...9") }
        return try encode(bitmap, format: "PNG") { src, out, length, message in
            fg_png_encode_level(src, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.bytesPerRow,
                                Int32(bitmap.format.channels), Int32(level), out, length, message, 256)
        }
    }

    /// Lossy WebP at `quality` (0...100), libwebp's photo preset; alpha is kept (not flattened) and
    /// grey is stored as RGB.
    public static func encodeWebP(_ bitmap: Bitmap, quality: Int = 80) throws(EncodeError) -> [UInt8] {
        guard (0...100).contains(quality) else { throw .invalidParameter("WebP quality \(quality) is outside 0...100") }
        return try encode(bitmap, format: "WebP") { src, out, length, message in
            fg_webp_encode(src, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.bytesPerRow,
                           Int32(bitmap.format.channels), Int32(quality), out, length, message, 256)
        }
    }

    /// AVIF (AV1 through libheif's aom encoder) at `quality` (0...100), 4:2:0, on one thread; `speed`
    /// 0...9 trades compression for time (see ``Thumbnailer/avifSpeed``). Alpha is kept, grey is stored as RGB.
    public static func encodeAVIF(_ bitmap: Bitmap, quality: Int = 75, speed: Int = 9) throws(EncodeError) -> [UInt8] {
        guard (0...100).contains(quality) else { throw .invalidParameter("AVIF quality \(quality) is outside 0...100") }
        guard (0...9).contains(speed) else { throw .invalidParameter("AVIF speed \(speed) is outside 0...9") }
        guard fg_heif_can_encode_avif() != 0 else {
            throw .codecFailed(format: "AVIF", reason: "libheif has no AV1 encoder (install libheif-plugin-aomenc)")
        }
        return try encode(bitmap, format: "AVIF") { src, out, length, message in
            fg_heif_encode_avif(src, UInt32(bitmap.width), UInt32(bitmap.height), bitmap.bytesPerRow,
                                Int32(bitmap.format.channels), Int32(quality), Int32(speed), out, length, message, 256)
        }
    }

    /// Runs a C encoder that mallocs its output, copies the bytes into an array and frees them.
    private static func encode(
        _ bitmap: Bitmap, format: String,
        _ call: (UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>) -> fg_status
    ) throws(EncodeError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bitmap.withUnsafeBytes { pixels in
            call(pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), &out, &length, &message)
        }
        guard status == FG_OK, let out else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .codecFailed(format: format, reason: reason.isEmpty ? "status \(status.rawValue)" : reason)
        }
        defer { fg_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
