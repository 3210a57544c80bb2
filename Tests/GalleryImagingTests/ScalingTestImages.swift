import Foundation
import GalleryImaging

/// Synthetic bitmaps and an independent, slow double-precision area-average reference for the
/// scaler tests.
enum ScalingTestImages {
    /// A bitmap whose byte at (x, y, c) is `value(x, y, c)`.
    static func make(width: Int, height: Int, format: PixelFormat,
                     value: (Int, Int, Int) -> UInt8) -> Bitmap {
        let n = format.channels
        var pixels = [UInt8](repeating: 0, count: width * height * n)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<n { pixels[(y * width + x) * n + c] = value(x, y, c) }
            }
        }
        return Bitmap(width: width, height: height, format: format, pixels: pixels)
    }

    /// Smooth but non-trivial content: two slow gradients and a low-frequency wave.
    static func smooth(width: Int, height: Int, format: PixelFormat) -> Bitmap {
        make(width: width, height: height, format: format) { x, y, c in
            let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
            let v = 40 + 80 * fx + 60 * fy + 30 * sin(6.0 * fx + Double(c)) * cos(4.0 * fy)
            return UInt8(max(0, min(255, v.rounded())))
        }
    }

    /// Exact area averaging in Double, alpha-weighted, computed pixel by pixel from the definition:
    /// output (ox, oy) averages the source rectangle [ox*sx, (ox+1)*sx) x [oy*sy, (oy+1)*sy).
    static func areaReference(_ bitmap: Bitmap, width: Int, height: Int) -> [Double] {
        let n = bitmap.format.channels
        let alpha = bitmap.format.hasAlpha
        let sx = Double(bitmap.width) / Double(width), sy = Double(bitmap.height) / Double(height)
        var out = [Double](repeating: 0, count: width * height * n)
        for oy in 0..<height {
            let y0 = Double(oy) * sy, y1 = y0 + sy
            for ox in 0..<width {
                let x0 = Double(ox) * sx, x1 = x0 + sx
                var sums = [Double](repeating: 0, count: n)
                var total = 0.0
                for y in Int(y0)..<min(bitmap.height, Int(y1.rounded(.up))) {
                    let wy = min(Double(y + 1), y1) - max(Double(y), y0)
                    for x in Int(x0)..<min(bitmap.width, Int(x1.rounded(.up))) {
                        let w = wy * (min(Double(x + 1), x1) - max(Double(x), x0))
                        guard w > 0 else { continue }
                        let a = alpha ? Double(bitmap[x, y, n - 1]) / 255 : 1
                        for c in 0..<n {
                            let premultiplied = alpha && c < n - 1
                            sums[c] += w * Double(bitmap[x, y, c]) * (premultiplied ? a : 1)
                        }
                        total += w
                    }
                }
                for c in 0..<n { sums[c] /= total }
                if alpha {
                    let a = sums[n - 1]
                    for c in 0..<(n - 1) { sums[c] = a < 0.5 ? 0 : sums[c] * 255 / a }
                }
                for c in 0..<n { out[(oy * width + ox) * n + c] = sums[c] }
            }
        }
        return out
    }

    /// Largest absolute difference between a bitmap and reference samples.
    static func maxDifference(_ bitmap: Bitmap, _ reference: [Double]) -> Double {
        let n = bitmap.format.channels
        var worst = 0.0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                for c in 0..<n {
                    worst = max(worst, abs(Double(bitmap[x, y, c]) - reference[(y * bitmap.width + x) * n + c]))
                }
            }
        }
        return worst
    }

    /// PSNR in dB between a bitmap and reference samples (infinity when equal).
    static func psnr(_ bitmap: Bitmap, _ reference: [Double]) -> Double {
        let n = bitmap.format.channels
        var sum = 0.0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                for c in 0..<n {
                    let d = Double(bitmap[x, y, c]) - reference[(y * bitmap.width + x) * n + c]
                    sum += d * d
                }
            }
        }
        let mse = sum / Double(bitmap.width * bitmap.height * n)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
