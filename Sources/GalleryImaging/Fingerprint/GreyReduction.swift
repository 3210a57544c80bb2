import Foundation

/// A photo's whole frame squeezed into 24 x 24 grey pixels (576 bytes; 768 characters of base64 in the
/// journal): what a gallery keeps beside the pHash to check that two photos whose hashes are near are
/// one picture (``CopyCheck``).
///
/// Taken from the pHash's own 32 x 32 reduction (``ImageFingerprint``), area-averaged down, so it costs
/// no decode and no pass over the thumbnail. Like the pHash it ignores the aspect ratio: each axis runs
/// 0...1 across the frame, which is what the alignment works in. 24 pixels a side is the most that
/// keeps the journal line under 1 KB a photo, and enough to see a changed tenth of the frame (7 x 7
/// pixels) and to align two frames to about a percent of their size.
public struct GreyReduction: Sendable, Hashable, Codable {
    /// Pixels a side.
    public static let side = 24

    /// `side` x `side` grey values, row by row from the top left.
    public let pixels: [UInt8]

    /// Wraps `side` x `side` grey values; nil for any other count.
    public init?(pixels: [UInt8]) {
        guard pixels.count == Self.side * Self.side else { return nil }
        self.pixels = pixels
    }

    /// The reduction of `bitmap` (any pixel format; alpha is ignored, as the pHash ignores it).
    public init(of bitmap: Bitmap) {
        self.init(grey32: PerceptualHash.grey(PerceptualHash.reduce(bitmap)))
    }

    /// The reduction of the pHash's 32 x 32 grey pixels.
    init(grey32: Bitmap) {
        let small = Resampler(filter: .area).scale(PerceptualHash.grey(grey32), width: Self.side, height: Self.side)
        pixels = small.withUnsafeBytes { bytes in
            (0..<Self.side).flatMap { y in (0..<Self.side).map { x in bytes[y * small.bytesPerRow + x] } }
        }
    }

    /// The pixels in base64, as the journal keeps them.
    public var base64: String { Data(pixels).base64EncodedString() }

    /// The reduction spelled by ``base64``; nil for anything else.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.init(pixels: [UInt8](data))
    }

    /// Decoded from its ``base64`` string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let reduction = GreyReduction(base64: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a \(Self.side)x\(Self.side) grey reduction in base64"))
        }
        self = reduction
    }

    /// Encodes the ``base64`` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }
}
