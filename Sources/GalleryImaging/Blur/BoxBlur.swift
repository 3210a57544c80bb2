import Foundation

/// The dataset's `--bbox-col`: img2dataset 1.47's face blurring (its `BoundingBoxBlurrer`), pixel for pixel where we can.
///
/// Each box `[x0, y0, x1, y1]` is a fraction of the image it is applied to (img2dataset blurs after the
/// scale and before the white border or the centre crop). A box's corners are `int(fraction * side)`; the
/// largest side of any box (`max(x1 - x0, y1 - y0)`, in pixels) is the blur's `diagonal`; each box grows
/// by a tenth of its own side on every edge (truncated, then clipped to `0...side-1`) and is filled into a
/// mask. The kernel is `max(3, 2 * ceil(0.1 * diagonal) + 1)` wide, and albumentations 1.4's GaussianBlur
/// (sigma 0) leaves OpenCV to derive sigma from it: `0.3 * ((k - 1) / 2 - 1) + 0.8`, or OpenCV's fixed
/// tables for k <= 9. Both the image and the mask are blurred (reflect-101 borders, in float32), and each
/// pixel becomes `img * (1 - mask') + blurred * mask'`, truncated back to 8 bits. Pixels farther than the
/// kernel's radius from every grown box are never touched (img2dataset's float round trip leaves them
/// unchanged too).
///
/// Unlike img2dataset, the blur is kept with `--skip-reencode` (img2dataset then writes the original bytes).
public enum BoxBlur {
    /// OpenCV's `small_gaussian_tab`: the kernels `getGaussianKernel` uses for an odd size <= 9 and sigma <= 0.
    static let fixedKernels: [Int: [Float]] = [
        3: [0.25, 0.5, 0.25],
        5: [0.0625, 0.25, 0.375, 0.25, 0.0625],
        7: [0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125],
        9: [4, 13, 30, 51, 60, 51, 30, 13, 4].map { Float($0) / 256 },
    ]

    /// A mask rectangle in pixels: rows `y0..<y1`, columns `x0..<x1` (numpy's slice, empty when reversed).
    public struct Rect: Equatable, Sendable { public var x0, y0, x1, y1: Int }

    /// The mask rectangles and the kernel size img2dataset derives from `boxes` on a `width` x `height` image.
    public static func plan(_ boxes: [[Double]], width: Int, height: Int) -> (rects: [Rect], kernel: Int) {
        var rects: [Rect] = []
        var maxDiagonal = 0
        // Python's int(): truncation toward zero (a value past Int's range is clamped, not trapped on).
        func int(_ x: Double) -> Int { x.isFinite ? Int(max(-1e15, min(1e15, x)).rounded(.towardZero)) : 0 }
        for box in boxes where box.count >= 4 {
            var b = [int(box[0] * Double(width)), int(box[1] * Double(height)),
                     int(box[2] * Double(width)), int(box[3] * Double(height))]
            let diagonal = max(b[2] - b[0], b[3] - b[1])
            maxDiagonal = max(maxDiagonal, diagonal)
            let grow = 0.1 * Double(diagonal)
            b[0] = int(Double(b[0]) - grow)
            b[1] = int(Double(b[1]) - grow)
            b[2] = int(Double(b[2]) + grow)
            b[3] = int(Double(b[3]) + grow)
            let clip = { (v: Int, side: Int) in max(0, min(side - 1, v)) }
            rects.append(Rect(x0: clip(b[0], width), y0: clip(b[1], height), x1: clip(b[2], width), y1: clip(b[3], height)))
        }
        let sigma = 0.1 * Double(maxDiagonal)
        var kernel = max(3, int(2 * sigma.rounded(.up) + 1))
        if kernel % 2 == 0 { kernel += 1 }
        return (rects.filter { $0.x1 > $0.x0 && $0.y1 > $0.y0 }, kernel)
    }

    /// OpenCV's `getGaussianKernel(k, 0, CV_32F)`.
    static func gaussianKernel(_ k: Int) -> [Float] {
        if let fixed = fixedKernels[k] { return fixed }
        let sigma = 0.3 * (Double(k - 1) * 0.5 - 1) + 0.8
        let scale = -0.5 / (sigma * sigma)
        var values = (0..<k).map { i -> Double in
            let x = Double(i) - Double(k - 1) * 0.5
            return Foundation.exp(scale * x * x)
        }
        let sum = values.reduce(0, +)
        values = values.map { $0 / sum }
        return values.map { Float($0) }
    }

    /// OpenCV's BORDER_REFLECT_101 (`gfedcb|abcdefgh|gfedcba`), repeated for a kernel wider than the side.
    @inline(__always)
    static func reflect(_ p: Int, _ side: Int) -> Int {
        if side == 1 { return 0 }
        var p = p
        while p < 0 || p >= side { p = p < 0 ? -p : 2 * side - 2 - p }
        return p
    }

    /// `bitmap` (8-bit grey or RGB, no alpha) with `boxes` blurred; the same bitmap when no box covers a pixel.
    public static func blurred(_ bitmap: Bitmap, boxes: [[Double]]) -> Bitmap {
        let (w, h) = (bitmap.width, bitmap.height)
        guard !bitmap.format.hasAlpha, w > 0, h > 0 else { return bitmap }
        let (rects, k) = plan(boxes, width: w, height: h)
        guard !rects.isEmpty else { return bitmap }
        let kernel = gaussianKernel(k)
        let r = k / 2
        // The pixels the blurred mask can reach: the grown boxes widened by the kernel's radius.
        let rx0 = max(0, rects.map(\.x0).min()! - r), rx1 = min(w, rects.map(\.x1).max()! + r)
        let ry0 = max(0, rects.map(\.y0).min()! - r), ry1 = min(h, rects.map(\.y1).max()! + r)
        let ch = bitmap.format.channels
        let regionWidth = rx1 - rx0
        // Rows the vertical pass reads, mapped through the border.
        var lo = h, hi = -1
        for y in ry0..<ry1 { for j in -r...r { let s = reflect(y + j, h); lo = min(lo, s); hi = max(hi, s) } }
        // Horizontal pass over rows lo...hi, columns of the region: the image (ch values) and the mask (1).
        let rows = hi - lo + 1
        var horizontal = [Float](repeating: 0, count: rows * regionWidth * ch)
        var horizontalMask = [Float](repeating: 0, count: rows * regionWidth)
        let taps = k
        // Each region column's source columns (mirrored at the borders), flat: column cx's taps at cx * taps.
        var columnTaps = [Int](repeating: 0, count: regionWidth * taps)
        for cx in 0..<regionWidth { for t in 0..<taps { columnTaps[cx * taps + t] = reflect(rx0 + cx + t - r, w) } }
        var pixels = [UInt8](repeating: 0, count: w * h * ch)
        bitmap.withUnsafeBytes { src in
            for y in 0..<h { for x in 0..<(w * ch) { pixels[y * w * ch + x] = src[y * bitmap.bytesPerRow + x] } }
        }
        var rowMask = [Float](repeating: 0, count: w)
        var rowValues = [Float](repeating: 0, count: w * ch)
        kernel.withUnsafeBufferPointer { kernel in
        columnTaps.withUnsafeBufferPointer { columnTaps in
        horizontal.withUnsafeMutableBufferPointer { horizontal in
        horizontalMask.withUnsafeMutableBufferPointer { horizontalMask in
        pixels.withUnsafeMutableBufferPointer { pixels in
        rowMask.withUnsafeMutableBufferPointer { rowMask in
        rowValues.withUnsafeMutableBufferPointer { rowValues in
            for y in lo...hi {
                for x in 0..<w { rowMask[x] = 0 }
                for rect in rects where y >= rect.y0 && y < rect.y1 { for x in rect.x0..<rect.x1 { rowMask[x] = 1 } }
                for i in 0..<(w * ch) { rowValues[i] = Float(pixels[y * w * ch + i]) / 255 }
                let base = (y - lo) * regionWidth
                for cx in 0..<regionWidth {
                    let from = cx * taps
                    var m: Float = 0
                    for t in 0..<taps { m += kernel[t] * rowMask[columnTaps[from + t]] }
                    horizontalMask[base + cx] = m
                    for c in 0..<ch {
                        var v: Float = 0
                        for t in 0..<taps { v += kernel[t] * rowValues[columnTaps[from + t] * ch + c] }
                        horizontal[(base + cx) * ch + c] = v
                    }
                }
            }
            // Vertical pass and the mix, over the region only.
            var rowTaps = [Int](repeating: 0, count: taps)
            for y in ry0..<ry1 {
                for t in 0..<taps { rowTaps[t] = reflect(y + t - r, h) - lo }
                for cx in 0..<regionWidth {
                    var m: Float = 0
                    for t in 0..<taps { m += kernel[t] * horizontalMask[rowTaps[t] * regionWidth + cx] }
                    guard m != 0 else { continue }
                    let at = (y * w + rx0 + cx) * ch
                    for c in 0..<ch {
                        var b: Float = 0
                        for t in 0..<taps { b += kernel[t] * horizontal[(rowTaps[t] * regionWidth + cx) * ch + c] }
                        let original = Float(pixels[at + c]) / 255
                        let mixed = (original * (1 - m) + b * m) * 255
                        pixels[at + c] = UInt8(max(0, min(255, mixed.rounded(.towardZero))))
                    }
                }
            }
        }}}}}}}
        return Bitmap(width: w, height: h, format: bitmap.format, pixels: pixels)
    }
}
