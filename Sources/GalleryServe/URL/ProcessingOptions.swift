import GalleryKit

/// The processing options of one imgproxy URL, after presets are applied, in the units the
/// URL gave (``scaledWidth`` and ``scaledHeight`` apply `dpr`).
public struct ProcessingOptions: Sendable, Hashable {
    /// imgproxy's resizing types.
    public enum ResizingType: String, Sendable, Hashable, CaseIterable {
        /// Scaled to fit inside the box, aspect ratio kept.
        case fit
        /// Scaled to cover the box, aspect ratio kept, the overhang cropped by gravity.
        case fill
        /// As `fill`, but a source smaller than the box is cropped to the box's aspect ratio, not enlarged.
        case fillDown = "fill-down"
        /// Scaled to the box exactly, aspect ratio not kept.
        case force
        /// `fill` when the source and the box have the same orientation (both landscape or both portrait), else `fit`.
        case auto
    }

    /// Where a crop is anchored.
    public enum GravityType: String, Sendable, Hashable, CaseIterable {
        case center = "ce", north = "no", south = "so", east = "ea", west = "we"
        case northEast = "noea", northWest = "nowe", southEast = "soea", southWest = "sowe"
        /// The window with the most detail (edge energy) along the cropped axis; see docs/SERVE.md.
        case smart = "sm"
    }

    /// A gravity and its offsets (pixels, or a fraction of the image when below 1).
    public struct Gravity: Sendable, Hashable {
        public var type: GravityType = .center
        public var x: Double = 0
        public var y: Double = 0
        public init(type: GravityType = .center, x: Double = 0, y: Double = 0) {
            self.type = type
            self.x = x
            self.y = y
        }
    }

    /// The formats the service writes.
    public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
        case jpeg, png, webp, avif

        /// The format a URL extension or `f:` value names (`jpg` and `jpeg` both JPEG), or nil.
        public init?(name: String) {
            switch name.lowercased() {
            case "jpg", "jpeg": self = .jpeg
            case "png": self = .png
            case "webp": self = .webp
            case "avif": self = .avif
            default: return nil
            }
        }

        /// `image/jpeg`, ...
        public var mediaType: String { "image/" + rawValue }
    }

    public var resizingType = ResizingType.fit
    /// Requested width in CSS pixels; 0 means "from the height and the aspect ratio".
    public var width = 0
    /// Requested height; 0 means "from the width and the aspect ratio".
    public var height = 0
    public var gravity = Gravity()
    /// Encoder quality 1...100; nil is the service's default.
    public var quality: Int?
    /// The output format; nil keeps the source's (or negotiates from Accept when enabled).
    public var format: OutputFormat?
    /// Device pixel ratio: width, height and offsets are multiplied by it.
    public var dpr: Double = 1
    /// Whether a source smaller than the box is scaled up.
    public var enlarge = false
    /// Whether the EXIF orientation is applied (always on here: the decoder applies it once).
    public var autoRotate = true
    /// Gaussian blur sigma in pixels; 0 is none.
    public var blur: Double = 0

    public init() {}

    /// The width in device pixels.
    public var scaledWidth: Int { Int((Double(width) * dpr).rounded()) }
    /// The height in device pixels.
    public var scaledHeight: Int { Int((Double(height) * dpr).rounded()) }

    /// One canonical spelling of every option that changes the pixels, so URLs that differ only
    /// in spelling (`rs:fit:300` and `w:300`, option order) share a cache entry and an ETag.
    public var normalized: String {
        var parts = ["rt:\(resizingType.rawValue)", "w:\(scaledWidth)", "h:\(scaledHeight)",
                     "g:\(gravity.type.rawValue):\(gravity.x * dpr):\(gravity.y * dpr)", "el:\(enlarge ? 1 : 0)"]
        if let quality { parts.append("q:\(quality)") }
        if blur > 0 { parts.append("bl:\(blur)") }
        return parts.joined(separator: "/")
    }
}
