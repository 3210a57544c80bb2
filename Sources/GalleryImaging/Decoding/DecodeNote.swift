/// Something a decode tolerated that is worth a debug line, never an error: the image decoded.
public enum DecodeNote: Sendable, Hashable, CustomStringConvertible {
    /// A JPEG whose data ends without its end-of-image marker although every scan is complete (common
    /// from cameras and editors): decoded in full.
    case missingEndMarker
    /// The file's colour profile could not be used (unreadable, or not fitting the pixels); the
    /// pixels are taken as sRGB.
    case colorProfileIgnored(reason: String)
    /// A HEIF or AVIF file whose `ftyp` box lists its codec's brand only as the major brand, which
    /// libheif refuses: read from a copy whose first compatible brand is the major one.
    case heifBrandsRepaired

    /// One line for a log.
    public var description: String {
        switch self {
        case .missingEndMarker: "JPEG end-of-image marker missing (the scans are complete)"
        case .colorProfileIgnored(let reason): "colour profile ignored: \(reason)"
        case .heifBrandsRepaired: "ftyp lists no brand libheif accepts: read with the major brand added"
        }
    }
}
