/// The size a decode should at least deliver; the decoder may return anything between that and the
/// full size, and reduces in the codec (JPEG DCT scaling, early Adam7 passes) when it can.
public enum DecodeTarget: Sendable, Hashable {
    /// Every pixel of the source.
    case fullSize
    /// Enough pixels for a thumbnail whose longest edge is this many pixels.
    case longestEdge(Int)
    /// At least this many pixels in each direction (capped at the source size).
    case covering(width: Int, height: Int)

    /// The smallest stored size acceptable for a source of `width` x `height`: the source scaled so
    /// the requested edge fits, aspect kept, never upscaled, each side at least 1.
    public func minimumSize(sourceWidth width: Int, sourceHeight height: Int) -> (width: Int, height: Int) {
        switch self {
        case .fullSize:
            return (width, height)
        case .covering(let w, let h):
            return (min(max(w, 1), width), min(max(h, 1), height))
        case .longestEdge(let edge):
            // The same rounding as the scaler's, so the codec never reduces below the final size.
            return targetSize(forSourceWidth: width, height: height, longestEdge: edge)
        }
    }
}

/// How to decode: the target size, the fast paths, and the guards that refuse hostile or absurd
/// inputs before any pixel buffer is allocated. A guard set to 0 (or less) is off.
public struct DecodeOptions: Sendable, Hashable {
    /// The size wanted; smaller targets let the codec skip work.
    public var target: DecodeTarget
    /// Refuse sources with more pixels (width x height, from the header).
    public var maxPixels: Int
    /// Refuse progressive JPEGs with more scans (a cheap denial-of-service otherwise).
    public var maxScans: Int
    /// Refuse when the decoded bitmap would take more bytes.
    public var maxDecodedBytes: Int
    /// Cap on libjpeg's own working memory (whole-image coefficient buffers of progressive files).
    public var maxCodecMemory: Int
    /// Accept JPEG data that ends early (libjpeg pads it with grey) instead of failing `.truncated`.
    public var allowTruncated: Bool
    /// Use the DC-only progressive JPEG path, early Adam7 passes and HEIF thumbnail items when the target allows.
    /// Off, the decoder takes the plain path (tests compare the two).
    public var useFastPaths: Bool
    /// Read the file's colour profile (ICC, PNG `sRGB`/`gAMA`/`cHRM`) so thumbnails convert to sRGB,
    /// and CMYK JPEGs with a profile convert through it. Off, every file is taken as sRGB and CMYK
    /// converts naively, as before profiles were read (tests and benchmarks compare the two).
    public var readsColorProfiles: Bool

    /// Options with the given target and guards; the defaults refuse more than 100 MP, 1000 scans, 512 MiB decoded or 1 GiB of codec memory.
    public init(target: DecodeTarget = .fullSize,
                maxPixels: Int = 100_000_000,
                maxScans: Int = 1_000,
                maxDecodedBytes: Int = 512 << 20,
                maxCodecMemory: Int = 1 << 30,
                allowTruncated: Bool = false,
                useFastPaths: Bool = true,
                readsColorProfiles: Bool = true) {
        self.target = target
        self.maxPixels = maxPixels
        self.maxScans = maxScans
        self.maxDecodedBytes = maxDecodedBytes
        self.maxCodecMemory = maxCodecMemory
        self.allowTruncated = allowTruncated
        self.useFastPaths = useFastPaths
        self.readsColorProfiles = readsColorProfiles
    }
}
