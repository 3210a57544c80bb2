/// Small, bounds-checked readers for the EXIF a gallery needs: the Orientation tag (0x0112) for the
/// thumbnailer, and the camera's description of the shot (``ExifMetadata``) for the photo pages.
/// Every offset comes from the file, so every read is checked (``TIFFBlock``); junk gives nil, never a
/// trap, and no offset is followed twice, so a loop of IFD pointers ends.
public enum ExifReader {
    /// The orientation from the first APP1 `Exif\0\0` segment of a JPEG, or nil when there is none
    /// (or it is unreadable). Stops at SOS: EXIF must precede the image data.
    public static func orientation(inJPEG bytes: UnsafeRawBufferPointer) -> Orientation? {
        var found: Orientation?
        forEachExifBlock(inJPEG: bytes) { tiff in
            found = orientation(inTIFF: tiff)
            return found != nil
        }
        return found
    }

    /// The orientation in a TIFF-structured EXIF block (the APP1 payload after `Exif\0\0`, or a PNG
    /// `eXIf` chunk). Both byte orders. nil when the tag is absent or the block is malformed.
    public static func orientation(inTIFF tiff: UnsafeRawBufferPointer) -> Orientation? {
        guard let block = TIFFBlock(tiff), let ifd = block.firstIFD else { return nil }
        guard let entry = block.entries(at: ifd).first(where: { $0.tag == 0x0112 }) else { return nil }
        // SHORT is what the standard says; tolerate LONG from sloppy writers.
        guard entry.type == 3 || entry.type == 4 else { return nil }
        let value = entry.type == 3 ? block.u16(entry.field) : block.u32(entry.field)
        return value.map { Orientation(exifValue: $0) }
    }

    /// The shot's description from the EXIF of a JPEG, PNG or WebP file (the format is sniffed from
    /// the bytes), or nil when the file has no EXIF or none of the fields ``ExifMetadata`` keeps.
    public static func metadata(in bytes: UnsafeRawBufferPointer) -> ExifMetadata? {
        guard let tiff = ExifContainer.exifBlock(in: bytes) else { return nil }
        return metadata(inTIFF: tiff)
    }

    /// The shot's description in a TIFF-structured EXIF block; nil when it holds none of the fields.
    public static func metadata(inTIFF tiff: UnsafeRawBufferPointer) -> ExifMetadata? {
        guard let block = TIFFBlock(tiff), let ifd0 = block.firstIFD else { return nil }
        var visited: Set<Int> = [ifd0]
        var exif = ExifMetadata()
        var exifIFD: Int?, gpsIFD: Int?
        var modified: String?
        for entry in block.entries(at: ifd0) {
            switch entry.tag {
            case 0x010F: exif.make = block.string(entry)
            case 0x0110: exif.model = block.string(entry)
            case 0x0132: modified = block.string(entry)
            case 0x8769: exifIFD = block.integer(entry)
            case 0x8825: gpsIFD = block.integer(entry)
            default: break
            }
        }
        var offsetTime: String?
        if let offset = exifIFD, visited.insert(offset).inserted {
            for entry in block.entries(at: offset) {
                switch entry.tag {
                case 0x829A: exif.exposureTime = positive(block.real(entry))
                case 0x829D: exif.fNumber = positive(block.real(entry))
                case 0x8827: exif.iso = block.integer(entry).flatMap { $0 > 0 ? $0 : nil }
                case 0x9003: exif.dateTaken = ExifMetadata.isoDate(block.string(entry))
                case 0x9011: offsetTime = block.string(entry)
                case 0x920A: exif.focalLength = positive(block.real(entry))
                case 0xA434: exif.lens = block.string(entry)
                default: break
                }
            }
        }
        if exif.dateTaken == nil { exif.dateTaken = ExifMetadata.isoDate(modified) }
        if let date = exif.dateTaken, let zone = ExifMetadata.isoOffset(offsetTime) { exif.dateTaken = date + zone }
        if let offset = gpsIFD, visited.insert(offset).inserted {
            readLocation(block, at: offset, into: &exif)
        }
        return exif.isEmpty ? nil : exif
    }

    /// GPSLatitude/Longitude (three rationals: degrees, minutes, seconds) with their N/S, E/W
    /// references, and GPSAltitude with its above/below-sea-level byte.
    private static func readLocation(_ block: TIFFBlock, at offset: Int, into exif: inout ExifMetadata) {
        var latitude: Double?, longitude: Double?, altitude: Double?
        var south = false, west = false, below = false
        func degrees(_ entry: TIFFBlock.Entry) -> Double? {
            guard entry.count >= 3, let d = block.real(entry, index: 0), let m = block.real(entry, index: 1),
                  let s = block.real(entry, index: 2) else { return nil }
            let value = d + m / 60 + s / 3600
            return value.isFinite ? value : nil
        }
        for entry in block.entries(at: offset) {
            switch entry.tag {
            case 0x0001: south = block.string(entry)?.uppercased() == "S"
            // The magnitude only (the references give the sign): an SRATIONAL could make it negative.
            case 0x0002: latitude = degrees(entry).flatMap { (0...90).contains($0) ? $0 : nil }
            case 0x0003: west = block.string(entry)?.uppercased() == "W"
            case 0x0004: longitude = degrees(entry).flatMap { (0...180).contains($0) ? $0 : nil }
            case 0x0005: below = block.integer(entry) == 1
            case 0x0006: altitude = block.real(entry).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            default: break
            }
        }
        guard let latitude, let longitude else { return }
        exif.latitude = south ? -latitude : latitude
        exif.longitude = west ? -longitude : longitude
        exif.altitude = altitude.map { below ? -$0 : $0 }
    }

    private static func positive(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// Calls `body` with the TIFF block of each APP1 `Exif\0\0` segment before SOS, until it returns true.
    static func forEachExifBlock(inJPEG bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte before a marker
            i += 2
            if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= bytes.count else { return }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(i + 2)..<(i + length)])
            if marker == 0xE1, payload.count > 6, Array(payload[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                if body(UnsafeRawBufferPointer(rebasing: payload[6...])) { return }
            }
            i += length
        }
    }
}
