/// A small, bounds-checked reader for the one EXIF tag a thumbnailer needs: Orientation (0x0112) in
/// IFD0. Every offset comes from the file, so every read is checked; junk gives nil, never a trap.
public enum ExifReader {
    /// The orientation from the first APP1 `Exif\0\0` segment of a JPEG, or nil when there is none
    /// (or it is unreadable). Stops at SOS: EXIF must precede the image data.
    public static func orientation(inJPEG bytes: UnsafeRawBufferPointer) -> Orientation? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte before a marker
            i += 2
            if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { return nil }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(i + 2)..<(i + length)])
            if marker == 0xE1, payload.count > 6, Array(payload[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                if let found = orientation(inTIFF: UnsafeRawBufferPointer(rebasing: payload[6...])) {
                    return found
                }
            }
            i += length
        }
        return nil
    }

    /// The orientation in a TIFF-structured EXIF block (the APP1 payload after `Exif\0\0`, or a PNG
    /// `eXIf` chunk). Both byte orders. nil when the tag is absent or the block is malformed.
    public static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> Orientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT is what the standard says; tolerate LONG from sloppy writers.
            let value: Int? = switch type {
            case 3: u16(at + 8)
            case 4: u32(at + 8)
            default: nil
            }
            return value.map { Orientation(exifValue: $0) }
        }
        return nil
    }
}
