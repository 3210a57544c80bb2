/// img2dataset's resize modes (`--resize-mode`).
public enum DatasetResizeMode: String, Sendable, CaseIterable {
    /// Keep the size.
    case no
    /// Long side to the size, then pad to a white square (img2dataset's default).
    case border
    /// Short side to the size.
    case keepRatio = "keep_ratio"
    /// Long side to the size.
    case keepRatioLargest = "keep_ratio_largest"
    /// Short side to the size, then the centre square.
    case centerCrop = "center_crop"
    /// Exactly the size (`--image-size 256x192`, or N for N x N), the aspect ratio not kept (img2dataset PR
    /// #427's proposal; albumentations' Resize).
    case fixed
}

/// The sizes one image goes through, with img2dataset's arithmetic (albumentations' SmallestMaxSize /
/// LongestMaxSize: `scale = size / side`, each side `max(1, round(side * scale))` with Python's
/// round-half-to-even; PadIfNeeded: `before = (size - side) / 2` rounded down; CenterCrop: `(side - size) // 2`).
public struct ResizeGeometry: Sendable, Equatable {
    /// The size the image is scaled to (equal to the source when nothing is scaled).
    public var scaledWidth: Int
    public var scaledHeight: Int
    /// The final canvas.
    public var width: Int
    public var height: Int
    /// Where the scaled image's top-left corner goes on the canvas: positive pads (border), negative crops.
    public var offsetX: Int
    public var offsetY: Int
    /// Whether img2dataset's resize branch runs (it then re-encodes, even at an unchanged size).
    public var resizes: Bool
    /// Scaling up (Lanczos) rather than down (area averaging).
    public var upscales: Bool

    /// `height`: the fixed mode's height (nil: `size`); the other modes use `size` alone.
    public init(sourceWidth w: Int, sourceHeight h: Int, size: Int, height fixedHeight: Int? = nil, mode: DatasetResizeMode, onlyIfBigger: Bool) {
        scaledWidth = w
        scaledHeight = h
        width = w
        height = h
        offsetX = 0
        offsetY = 0
        resizes = false
        upscales = false
        let side: Int
        switch mode {
        case .no: return
        case .fixed:
            let (tw, th) = (size, fixedHeight ?? size)
            // Only if bigger: an image that already fits inside the size is kept as it is.
            guard !onlyIfBigger || w > tw || h > th, tw != w || th != h else { return }
            scaledWidth = tw
            scaledHeight = th
            width = tw
            height = th
            resizes = true
            // Lanczos only when no side shrinks (area averaging for any side that does).
            upscales = tw >= w && th >= h
            return
        case .keepRatio, .centerCrop: side = min(w, h)
        case .border, .keepRatioLargest: side = max(w, h)
        }
        let downscale = side > size
        guard !onlyIfBigger || downscale else { return }
        let scale = Double(size) / Double(side)
        scaledWidth = max(1, Int((Double(w) * scale).rounded(.toNearestOrEven)))
        scaledHeight = max(1, Int((Double(h) * scale).rounded(.toNearestOrEven)))
        resizes = true
        upscales = !downscale
        width = scaledWidth
        height = scaledHeight
        switch mode {
        case .border:
            if width < size { offsetX = (size - width) / 2; width = size }
            if height < size { offsetY = (size - height) / 2; height = size }
        case .centerCrop:
            if width > size { offsetX = -((width - size) / 2); width = size }
            if height > size { offsetY = -((height - size) / 2); height = size }
        default: break
        }
    }
}
