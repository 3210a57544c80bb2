import GalleryImaging

extension DatasetImageProcessor {
    /// img2dataset's alpha matting: `alpha / 255 * colour + 255 - alpha`, rounded, so transparent pixels
    /// turn white and the output has no alpha channel.
    static func flattenedOntoWhite(_ bitmap: Bitmap) -> Bitmap {
        guard bitmap.format.hasAlpha else { return bitmap }
        let colour = bitmap.format.channels - 1
        let format: PixelFormat = colour == 1 ? .gray8 : .rgb8
        return bitmap.withUnsafeBytes { src in
            Bitmap(width: bitmap.width, height: bitmap.height, format: format) { dst in
                var o = 0
                for y in 0..<bitmap.height {
                    var i = y * bitmap.bytesPerRow
                    for _ in 0..<bitmap.width {
                        let a = Double(src[i + colour])
                        for c in 0..<colour {
                            let v = a / 255 * Double(src[i + c]) + 255 - a
                            dst[o] = UInt8(max(0, min(255, v.rounded(.toNearestOrEven))))
                            o += 1
                        }
                        i += colour + 1
                    }
                }
            }
        }
    }

    /// The scaled bitmap on the final canvas: padded with white (border) or cropped (center_crop).
    static func placed(_ bitmap: Bitmap, on g: ResizeGeometry) -> Bitmap {
        let channels = bitmap.format.channels
        var canvas = [UInt8](repeating: 255, count: g.width * g.height * channels)
        bitmap.withUnsafeBytes { src in
            for y in 0..<g.height {
                let sy = y - g.offsetY
                guard sy >= 0, sy < bitmap.height else { continue }
                let sx0 = max(0, -g.offsetX)
                let dx0 = max(0, g.offsetX)
                let count = min(bitmap.width - sx0, g.width - dx0)
                guard count > 0 else { continue }
                let from = sy * bitmap.bytesPerRow + sx0 * channels
                let to = (y * g.width + dx0) * channels
                for k in 0..<(count * channels) { canvas[to + k] = src[from + k] }
            }
        }
        return Bitmap(width: g.width, height: g.height, format: bitmap.format, pixels: canvas)
    }
}
