/// Something a decode tolerated that is worth a debug line, never an error: the image decoded.
public enum DecodeNote: Sendable, Hashable, CustomStringConvertible {
    /// A JPEG whose data ends without its end-of-image marker although every scan is complete (common
    /// from cameras and editors): decoded in full.
    case missingEndMarker
    /// The file's colour profile could not be used (unreadable, or not fitting the pixels); the
    /// pixels are taken as sRGB.
    case colorProfileIgnored(reason: String)

    /// One line for a log.
    public var description: String {
        switch self {
        case .missingEndMarker: "JPEG end-of-image marker missing (the scans are complete)"
        case .colorProfileIgnored(let reason): "colour profile ignored: \(reason)"
        }
    }
}
