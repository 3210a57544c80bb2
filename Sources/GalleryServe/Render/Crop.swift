import GalleryKit

/// Cropping a bitmap to a window placed by imgproxy's gravity.
enum Crop {
    /// The `width` x `height` window of `bitmap` placed by `gravity` (offsets already in device pixels).
    static func window(of bitmap: Bitmap, width: Int, height: Int, gravity: ProcessingOptions.Gravity) -> (x: Int, y: Int) {
        let spareX = bitmap.width - width, spareY = bitmap.height - height
        func offset(_ value: Double, _ whole: Int) -> Int { Int((abs(value) < 1 ? value * Double(whole) : value).rounded()) }
        let dx = offset(gravity.x, bitmap.width), dy = offset(gravity.y, bitmap.height)
        var x = spareX / 2 + dx, y = spareY / 2 + dy
        switch gravity.type {
        case .center: break
        case .north: y = dy
        case .south: y = spareY - dy
        case .east: x = spareX - dx
        case .west: x = dx
        case .northEast: (x, y) = (spareX - dx, dy)
        case .northWest: (x, y) = (dx, dy)
        case .southEast: (x, y) = (spareX - dx, spareY - dy)
        case .southWest: (x, y) = (dx, spareY - dy)
        case .smart: (x, y) = SmartCrop.window(of: bitmap, width: width, height: height)
        }
        return (min(max(0, x), spareX), min(max(0, y), spareY))
    }

    /// `bitmap` cut to `width` x `height` (each at most the bitmap's) at the gravity's window.
    static func apply(_ bitmap: Bitmap, width: Int, height: Int, gravity: ProcessingOptions.Gravity) -> Bitmap {
        let width = min(width, bitmap.width), height = min(height, bitmap.height)
        guard width != bitmap.width || height != bitmap.height else { return bitmap }
        let (x, y) = window(of: bitmap, width: width, height: height, gravity: gravity)
        let channels = bitmap.format.channels
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        bitmap.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                for row in 0..<height {
                    let from = (y + row) * bitmap.bytesPerRow + x * channels
                    let to = row * width * channels
                    target.baseAddress!.advanced(by: to)
                        .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: width * channels)
                }
            }
        }
        return Bitmap(width: width, height: height, format: bitmap.format, pixels: pixels)
    }
}

/// imgproxy's `g:sm`, done our way: the crop window, slid along the axis that is cut, that holds the
/// most edge energy (sum of absolute luma differences to the right and below neighbours), measured
/// on a copy of at most 128 pixels a side. No face or saliency model: busy detail wins over flat sky.
enum SmartCrop {
    static func window(of bitmap: Bitmap, width: Int, height: Int) -> (x: Int, y: Int) {
        let spareX = bitmap.width - width, spareY = bitmap.height - height
        guard spareX > 0 || spareY > 0 else { return (0, 0) }
        let scale = min(1, 128 / Double(max(bitmap.width, bitmap.height)))
        let small = scale < 1 ? Resampler(filter: .area).scale(
            bitmap, width: max(1, Int(Double(bitmap.width) * scale)), height: max(1, Int(Double(bitmap.height) * scale))) : bitmap
        let energy = edgeEnergy(small)
        let (sw, sh) = (small.width, small.height)
        // Column and row sums, then the best window along the cropped axis.
        var columns = [Double](repeating: 0, count: sw), rows = [Double](repeating: 0, count: sh)
        for y in 0..<sh { for x in 0..<sw { columns[x] += energy[y * sw + x]; rows[y] += energy[y * sw + x] } }
        func best(_ sums: [Double], window: Int) -> Int {
            guard window < sums.count else { return 0 }
            var total = sums[0..<window].reduce(0, +), bestTotal = total, bestStart = 0
            for start in 1...(sums.count - window) {
                total += sums[start + window - 1] - sums[start - 1]
                if total > bestTotal { (bestTotal, bestStart) = (total, start) }
            }
            return bestStart
        }
        let x = spareX > 0 ? Int(Double(best(columns, window: max(1, Int(Double(width) * scale)))) / scale) : 0
        let y = spareY > 0 ? Int(Double(best(rows, window: max(1, Int(Double(height) * scale)))) / scale) : 0
        return (x, y)
    }

    private static func edgeEnergy(_ bitmap: Bitmap) -> [Double] {
        let (w, h, channels) = (bitmap.width, bitmap.height, bitmap.format.channels)
        var luma = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                luma[y * w + x] = channels >= 3
                    ? 0.299 * Double(bitmap[x, y, 0]) + 0.587 * Double(bitmap[x, y, 1]) + 0.114 * Double(bitmap[x, y, 2])
                    : Double(bitmap[x, y, 0])
            }
        }
        var energy = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let here = luma[y * w + x]
                let right = x + 1 < w ? abs(luma[y * w + x + 1] - here) : 0
                let below = y + 1 < h ? abs(luma[(y + 1) * w + x] - here) : 0
                energy[y * w + x] = right + below
            }
        }
        return energy
    }
}
