/// The size a thumbnail of `longestEdge` pixels should have for a source of `width` x `height`.
///
/// The longest side becomes `longestEdge`, the other keeps the aspect ratio (rounded to the nearest
/// pixel), and neither is ever below 1. A source that already fits is returned unchanged: thumbnails
/// are never upscaled. A `longestEdge` below 1 is treated as 1.
public func targetSize(forSourceWidth width: Int, height: Int, longestEdge: Int) -> (width: Int, height: Int) {
    precondition(width > 0 && height > 0, "source size must be positive")
    let edge = max(1, longestEdge)
    let longest = max(width, height)
    guard longest > edge else { return (width, height) }
    // Integer rounding of other * edge / longest, so 3000x2000 -> 256 gives exactly 171 on every platform.
    func scaled(_ side: Int) -> Int {
        max(1, (side * edge * 2 + longest) / (longest * 2))
    }
    return width >= height ? (edge, scaled(height)) : (scaled(width), edge)
}
