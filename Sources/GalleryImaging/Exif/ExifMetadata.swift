/// What a photo's EXIF says about the shot, as far as a gallery shows it. Every field is optional:
/// cameras write different subsets, and editors strip some. Strings are the camera's (untrusted)
/// text, cut at 256 bytes; numbers are finite and positive (a zero or junk value is left out).
///
/// The location (``latitude``, ``longitude``, ``altitude``) is read with the rest; callers that
/// publish the metadata drop it unless the user asked for it (``withoutLocation``): a photographer's
/// home is often in it.
public struct ExifMetadata: Sendable, Hashable, Codable {
    /// Camera maker (Make, 0x010F).
    public var make: String?
    /// Camera model (Model, 0x0110).
    public var model: String?
    /// Lens model (LensModel, 0xA434).
    public var lens: String?
    /// Exposure time in seconds (ExposureTime, 0x829A).
    public var exposureTime: Double?
    /// Aperture as an f-number (FNumber, 0x829D).
    public var fNumber: Double?
    /// ISO speed (PhotographicSensitivity, 0x8827).
    public var iso: Int?
    /// Focal length in millimetres (FocalLength, 0x920A).
    public var focalLength: Double?
    /// When the photo was taken, ISO 8601 local time (`2024-05-01T14:30:05`), with the offset
    /// (`+02:00`) when the camera recorded one (DateTimeOriginal 0x9003, else DateTime 0x0132).
    public var dateTaken: String?
    /// Latitude in degrees, north positive (GPSLatitude and GPSLatitudeRef).
    public var latitude: Double?
    /// Longitude in degrees, east positive (GPSLongitude and GPSLongitudeRef).
    public var longitude: Double?
    /// Altitude in metres above sea level (GPSAltitude and GPSAltitudeRef).
    public var altitude: Double?

    /// Metadata with the given fields.
    public init(make: String? = nil, model: String? = nil, lens: String? = nil, exposureTime: Double? = nil,
                fNumber: Double? = nil, iso: Int? = nil, focalLength: Double? = nil, dateTaken: String? = nil,
                latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil) {
        self.make = make
        self.model = model
        self.lens = lens
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
        self.dateTaken = dateTaken
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    enum CodingKeys: String, CodingKey {
        case make, model, lens, iso, latitude, longitude, altitude
        case exposureTime = "exposure_time", fNumber = "f_number", focalLength = "focal_length", dateTaken = "date_taken"
    }

    /// Whether no field is set.
    public var isEmpty: Bool { self == ExifMetadata() }

    /// Whether the GPS position is set.
    public var hasLocation: Bool { latitude != nil && longitude != nil }

    /// The same metadata without the GPS position; nil when nothing else is left.
    public var withoutLocation: ExifMetadata? {
        var copy = self
        copy.latitude = nil
        copy.longitude = nil
        copy.altitude = nil
        return copy.isEmpty ? nil : copy
    }

    /// `YYYY:MM:DD HH:MM:SS` (EXIF's form) as `YYYY-MM-DDTHH:MM:SS`; nil for anything else,
    /// including the all-zero date of a camera whose clock was never set.
    static func isoDate(_ text: String?) -> String? {
        guard let text else { return nil }
        let b = Array(text.utf8)
        guard b.count == 19 else { return nil }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digits.allSatisfy({ (0x30...0x39).contains(b[$0]) }), b[4] == 0x3A, b[7] == 0x3A, b[10] == 0x20,
              b[13] == 0x3A, b[16] == 0x3A else { return nil }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(b[$1] - 0x30) } }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        guard year > 0, (1...12).contains(month), (1...31).contains(day), number(11..<13) < 24,
              number(14..<16) < 60, number(17..<19) < 61 else { return nil }
        var out = Array(b)
        out[4] = 0x2D  // "-"
        out[7] = 0x2D
        out[10] = 0x54  // "T"
        return String(decoding: out, as: UTF8.self)
    }

    /// An OffsetTime value (`+02:00`, `-05:30`) when it has exactly that form.
    static func isoOffset(_ text: String?) -> String? {
        guard let text else { return nil }
        let b = Array(text.utf8)
        guard b.count == 6, b[0] == 0x2B || b[0] == 0x2D, b[3] == 0x3A,
              [1, 2, 4, 5].allSatisfy({ (0x30...0x39).contains(b[$0]) }) else { return nil }
        return text
    }
}
