import GallerySystem
/// How the bytes of one pixel are laid out. Every format is 8 bits per channel.
public enum PixelFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// One grey channel.
    case gray8
    /// Grey then alpha (straight, not premultiplied).
    case grayAlpha8
    /// Red, green, blue.
    case rgb8
    /// Red, green, blue, alpha (straight, not premultiplied).
    case rgba8

    /// Bytes (channels) per pixel.
    public var channels: Int {
        switch self {
        case .gray8: 1
        case .grayAlpha8: 2
        case .rgb8: 3
        case .rgba8: 4
        }
    }

    /// Whether the last channel is alpha.
    public var hasAlpha: Bool { self == .grayAlpha8 || self == .rgba8 }
}

/// A decoded image: 8-bit channels, rows top to bottom, `bytesPerRow` bytes apart.
///
/// The pixels live in a copy-on-write array, so a `Bitmap` is a value that can be shared across
/// tasks freely; the decoded-image cache hands the same storage to every reader.
public struct Bitmap: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The layout of one pixel.
    public let format: PixelFormat
    /// Bytes from the start of one row to the start of the next (at least `width * format.channels`).
    public let bytesPerRow: Int
    /// The pixel bytes, `height * bytesPerRow` of them.
    public private(set) var pixels: [UInt8]

    /// Wraps existing pixel bytes. `pixels` must hold at least `height * bytesPerRow` bytes and
    /// `bytesPerRow` must be at least `width * format.channels`.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) {
        let stride = bytesPerRow ?? width * format.channels
        precondition(width > 0 && height > 0, "a bitmap has at least one pixel")
        precondition(stride >= width * format.channels, "bytesPerRow too small for the width")
        precondition(pixels.count >= stride * height, "pixel buffer too small")
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.pixels = pixels
    }

    /// A bitmap of the given size with every byte zero (transparent black where there is alpha).
    public init(width: Int, height: Int, format: PixelFormat) {
        self.init(width: width, height: height, format: format) { buffer in buffer.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// Builds a bitmap by letting `fill` write all `height * bytesPerRow` bytes, with no zeroing first.
    /// Used by decoders to write straight into the final storage.
    public init(width: Int, height: Int, format: PixelFormat,
                fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let stride = width * format.channels
        let count = stride * height
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // A large buffer is faulted in by huge pages where the process asked for them (HugePages).
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            try fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }

    /// Bytes held, the cost a cache charges for this bitmap.
    public var byteCount: Int { pixels.count }

    /// One channel of one pixel. Traps when out of range.
    public subscript(x: Int, y: Int, channel: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < format.channels)
        return pixels[y * bytesPerRow + x * format.channels + channel]
    }

    /// Read-only access to the raw bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try pixels.withUnsafeBytes(body)
    }

    /// Mutable access to the raw bytes (copies first if the storage is shared).
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBytes(body)
    }
}
