import GalleryKit

/// A Gaussian blur of `sigma` pixels, approximated by three box blurs per axis (the passes' widths
/// chosen so their variance matches sigma squared), on every channel alike.
enum Blur {
    static func apply(_ bitmap: Bitmap, sigma: Double) -> Bitmap {
        guard sigma > 0 else { return bitmap }
        let radii = boxRadii(sigma: sigma)
        let (w, h, channels) = (bitmap.width, bitmap.height, bitmap.format.channels)
        var plane = [Float](repeating: 0, count: w * h * channels)
        for y in 0..<h { for x in 0..<w { for c in 0..<channels { plane[(y * w + x) * channels + c] = Float(bitmap[x, y, c]) } } }
        var scratch = plane
        for radius in radii {
            boxPass(&plane, into: &scratch, length: w, lines: h, step: channels, lineStride: w * channels, channels: channels, radius: radius)
            boxPass(&scratch, into: &plane, length: h, lines: w, step: w * channels, lineStride: channels, channels: channels, radius: radius)
        }
        var out = [UInt8](repeating: 0, count: w * h * channels)
        for index in out.indices { out[index] = UInt8(max(0, min(255, plane[index].rounded()))) }
        return Bitmap(width: w, height: h, format: bitmap.format, pixels: out)
    }

    /// Three box radii whose combined variance is close to sigma^2 (Kovesi's method).
    static func boxRadii(sigma: Double) -> [Int] {
        let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
        var lower = Int(ideal)
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        let m = ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (lower - 1) / 2 : (upper - 1) / 2 }
    }

    /// One running-sum box blur along every line (edges clamped).
    private static func boxPass(_ source: inout [Float], into target: inout [Float], length: Int, lines: Int,
                                step: Int, lineStride: Int, channels: Int, radius: Int) {
        guard radius > 0 else { target = source; return }
        let scale = 1 / Float(2 * radius + 1)
        for line in 0..<lines {
            for c in 0..<channels {
                let base = line * lineStride + c
                func at(_ i: Int) -> Float { source[base + min(max(i, 0), length - 1) * step] }
                var sum: Float = 0
                for i in -radius...radius { sum += at(i) }
                for i in 0..<length {
                    target[base + i * step] = sum * scale
                    sum += at(i + radius + 1) - at(i - radius)
                }
            }
        }
    }
}
