extension Bitmap {
    /// The bitmap transformed so that an image stored with EXIF orientation `orientation` shows
    /// upright. Pixels are only moved, never blended; orientations 5...8 swap width and height.
    /// The result is tightly packed (`bytesPerRow == width * channels`).
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let map = OrientationMap(orientation, width: width, height: height)
        let n = format.channels
        let sourceStride = bytesPerRow
        return Bitmap(width: map.width, height: map.height, format: format) { out in
            let dst = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            withUnsafeBytes { raw in
                let src = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                // Source byte offset of output (x, y) is origin + x * stepX + y * stepY.
                let stepX = map.dx.x * n + map.dx.y * sourceStride
                let stepY = map.dy.x * n + map.dy.y * sourceStride
                let origin = map.origin.x * n + map.origin.y * sourceStride
                for y in 0..<map.height {
                    var s = origin + y * stepY
                    var d = dst + y * map.width * n
                    for _ in 0..<map.width {
                        for c in 0..<n { d[c] = src[s + c] }
                        s += stepX
                        d += n
                    }
                }
            }
        }
    }
}

/// Where output pixel (x, y) of an oriented image comes from in the stored image: the source
/// pixel `origin + x * dx + y * dy` (all in pixel units), plus the output size.
struct OrientationMap {
    let width: Int
    let height: Int
    let origin: (x: Int, y: Int)
    let dx: (x: Int, y: Int)
    let dy: (x: Int, y: Int)

    init(_ orientation: Orientation, width w: Int, height h: Int) {
        switch orientation {
        case .up: // out(x, y) = in(x, y)
            (width, height, origin, dx, dy) = (w, h, (0, 0), (1, 0), (0, 1))
        case .upMirrored: // out(x, y) = in(w-1-x, y)
            (width, height, origin, dx, dy) = (w, h, (w - 1, 0), (-1, 0), (0, 1))
        case .down: // out(x, y) = in(w-1-x, h-1-y)
            (width, height, origin, dx, dy) = (w, h, (w - 1, h - 1), (-1, 0), (0, -1))
        case .downMirrored: // out(x, y) = in(x, h-1-y)
            (width, height, origin, dx, dy) = (w, h, (0, h - 1), (1, 0), (0, -1))
        case .leftMirrored: // transpose: out(x, y) = in(y, x)
            (width, height, origin, dx, dy) = (h, w, (0, 0), (0, 1), (1, 0))
        case .right: // rotate 90° clockwise: out(x, y) = in(y, h-1-x)
            (width, height, origin, dx, dy) = (h, w, (0, h - 1), (0, -1), (1, 0))
        case .rightMirrored: // transverse: out(x, y) = in(w-1-y, h-1-x)
            (width, height, origin, dx, dy) = (h, w, (w - 1, h - 1), (0, -1), (-1, 0))
        case .left: // rotate 90° counter-clockwise: out(x, y) = in(w-1-y, x)
            (width, height, origin, dx, dy) = (h, w, (w - 1, 0), (0, 1), (-1, 0))
        }
    }
}
