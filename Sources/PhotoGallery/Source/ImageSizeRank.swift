/// How big a 500px image size is, so "the largest available image" has one meaning.
///
/// The rule: a size number is a 500px size code when it is one of the codes below, and
/// then ranks by the longest edge that code stands for; any other number is taken as a
/// pixel size (500px's own 1080, 1600, 2048 work that way, and so do servers that just
/// send the pixel size). Ties go to the higher number, so the choice is deterministic.
public enum ImageSizeRank {
    /// Longest edge, in pixels, of the documented 500px size codes.
    /// Cropped squares (1, 2, 3, 100, 200, 440, 600) rank by their side.
    public static let knownCodes: [Int: Int] = [
        1: 70, 2: 140, 3: 280, 4: 900, 5: 1170, 6: 1080,
        20: 300, 21: 600, 30: 256, 31: 450,
        100: 100, 200: 200, 440: 440, 600: 600,
        1080: 1080, 1600: 1600, 2048: 2048,
    ]

    /// The longest edge in pixels that `size` stands for.
    public static func longestEdge(of size: Int) -> Int {
        knownCodes[size] ?? max(size, 0)
    }

    /// Whether `a` ranks strictly below `b`.
    public static func isSmaller(_ a: Int, than b: Int) -> Bool {
        (longestEdge(of: a), a) < (longestEdge(of: b), b)
    }
}
