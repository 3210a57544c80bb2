import Foundation

/// The blurred stand-in a thumbnail cell shows until its image arrives, without JavaScript: the photo's
/// ThumbHash drawn at 8 pixels on its longer side (the browser's smoothing blurs it up to the cell), as
/// a PNG `data:` URI in the `<img>`'s own background, covering the cell as the image will, so nothing
/// moves when it loads. About 207 bytes of PNG, 280 of base64, a photo (Scripts/bench-fingerprint);
/// drawn at 32 pixels it was 917 bytes of PNG.
enum Placeholder {
    /// The `style` attribute for the thumbnail of `original`; nil when it has no (readable) ThumbHash.
    static func style(_ original: OriginalFile?) -> String? {
        guard let text = original?.thumbhash, let bytes = Data(base64Encoded: text),
              let image = try? ThumbHash(bytes: [UInt8](bytes)).decoded(longestEdge: 8),
              let png = try? ImageEncoder.encodePNG(opaque(image))
        else { return nil }
        return "background:var(--stage) url(data:image/png;base64," + Data(png).base64EncodedString() + ") center/cover no-repeat"
    }

    /// The drawing without its alpha channel when it is fully opaque (a third fewer bytes).
    private static func opaque(_ image: Bitmap) -> Bitmap {
        guard image.format == .rgba8 else { return image }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(image.width * image.height * 3)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            guard image.pixels[i + 3] == 255 else { return image }
            rgb += image.pixels[i..<i + 3]
        }
        return Bitmap(width: image.width, height: image.height, format: .rgb8, pixels: rgb)
    }
}
