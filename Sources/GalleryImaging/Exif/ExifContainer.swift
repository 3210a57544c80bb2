/// Finds the TIFF-structured EXIF block inside an image file without decoding it: JPEG's APP1
/// `Exif\0\0` segment, PNG's `eXIf` chunk, WebP's `EXIF` chunk. Each walk is bounded by the file:
/// every length is checked before it is used and every step moves forward.
enum ExifContainer {
    static func exifBlock(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        switch ImageFormat.sniff(bytes) {
        case .jpeg?:
            var found: UnsafeRawBufferPointer?
            ExifReader.forEachExifBlock(inJPEG: bytes) { tiff in
                guard TIFFBlock(tiff) != nil else { return false }
                found = tiff
                return true
            }
            return found
        case .png?: return png(bytes)
        case .webp?: return webp(bytes)
        default: return nil
        }
    }

    /// The `eXIf` chunk before `IDAT` (PNG 1.5 extension: EXIF after the image data is ignored, as
    /// libpng does). Chunks: 4-byte big-endian length, 4-byte type, data, 4-byte CRC.
    static func png(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var at = 8
        while at <= bytes.count - 12 {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = Array(bytes[(at + 4)..<(at + 8)])
            guard length <= bytes.count - at - 12 else { return nil }
            if type == Array("IDAT".utf8) || type == Array("IEND".utf8) { return nil }
            if type == Array("eXIf".utf8) { return UnsafeRawBufferPointer(rebasing: bytes[(at + 8)..<(at + 8 + length)]) }
            at += 12 + length
        }
        return nil
    }

    /// The `EXIF` chunk of a RIFF WebP (extended format). Chunks: 4-byte type, 4-byte little-endian
    /// size, data padded to an even size. Some writers keep JPEG's `Exif\0\0` prefix; it is dropped.
    static func webp(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var at = 12
        while at <= bytes.count - 8 {
            let type = Array(bytes[at..<(at + 4)])
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            guard size <= bytes.count - at - 8 else { return nil }
            if type == Array("EXIF".utf8) {
                var exif = UnsafeRawBufferPointer(rebasing: bytes[(at + 8)..<(at + 8 + size)])
                if exif.starts(with: Array("Exif\0\0".utf8)) { exif = UnsafeRawBufferPointer(rebasing: exif.dropFirst(6)) }
                return exif
            }
            at += 8 + size + (size & 1)
        }
        return nil
    }
}
