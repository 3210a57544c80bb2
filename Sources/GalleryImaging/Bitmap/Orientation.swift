/// The EXIF Orientation tag: how the stored pixels must be transformed to show the image upright.
/// Raw values are the EXIF values 1...8; an absent or out-of-range tag (0 included) means `.up`.
public enum Orientation: Int, Sendable, Hashable, Codable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: transposed (mirror, then rotate 270° clockwise).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to be upright.
    case right = 6
    /// 7: transversed (mirror, then rotate 90° clockwise).
    case rightMirrored = 7
    /// 8: must be rotated 270° clockwise to be upright.
    case left = 8

    /// The orientation for an EXIF value; anything outside 1...8 is treated as `.up`.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// Whether showing the image upright swaps its width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
