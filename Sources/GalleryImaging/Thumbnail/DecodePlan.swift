import Foundation

/// How to get from encoded bytes to an upright bitmap of one ``BitmapSize``: the one code path
/// of decode, scale, colour and orientation that the library's `ImagePipeline` and a gallery run's
/// thumbnails (`ThumbnailWork`) share. A run decodes once, reduced for its largest rendition, and
/// finishes every rendition from that decode with the plan of its size.
package struct DecodePlan: Sendable {
    package var size: BitmapSize
    package var options: DecodeOptions

    package init(size: BitmapSize, options: DecodeOptions) {
        self.size = size
        self.options = options
    }

    /// The decode, reduced in the codec (DCT scaling, early Adam7 passes) as far as the size allows.
    package func decode(_ bytes: [UInt8], name: String) throws(DecodeError) -> DecodedImage {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(DecodeError) in try decode(raw, name: name) } }
        return try result.get()
    }

    /// The decode of bytes in memory or mapped (not copied: see ``MappedFile``).
    package func decode(_ bytes: UnsafeRawBufferPointer, name: String) throws(DecodeError) -> DecodedImage {
        var options = self.options
        switch size {
        case .full:
            options.target = .fullSize
        case .longestEdge(let edge):
            options.target = .longestEdge(edge)
        case .fit, .cover:
            // The box applies to the upright image, so the stored size is needed first: the
            // header alone (cheap next to the decode) gives it.
            let info = try ImageDecoder.probe(bytes, name: name, options: options)
            let stored = storedSize(sourceWidth: info.width, sourceHeight: info.height, orientation: info.orientation)
            options.target = .covering(width: stored.width, height: stored.height)
        }
        return try ImageDecoder.decode(bytes, name: name, options: options)
    }

    /// Scales the decoded bitmap to the exact size (in stored orientation), converts it to sRGB when
    /// asked (after the scale, on the fewer pixels), then makes it upright.
    package func finish(_ decoded: DecodedImage, resampler: Resampler, convertingToSRGB: Bool = true) -> Bitmap {
        let target = storedSize(sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight,
                                orientation: decoded.orientation)
        let scaled = resampler.scale(decoded.bitmap, width: target.width, height: target.height, extent: decoded.dctExtent)
        return (convertingToSRGB ? decoded.convertedToSRGB(scaled) : scaled).oriented(decoded.orientation)
    }

    /// The final size before orientation is applied, for a source stored at `sourceWidth` x `sourceHeight`.
    package func storedSize(sourceWidth: Int, sourceHeight: Int, orientation: Orientation) -> (width: Int, height: Int) {
        switch size {
        case .full:
            return (sourceWidth, sourceHeight)
        case .longestEdge(let edge):
            // The longest edge does not change under rotation.
            return targetSize(forSourceWidth: sourceWidth, height: sourceHeight, longestEdge: edge)
        case .fit(let boxWidth, let boxHeight):
            let swap = orientation.swapsDimensions
            let (uprightWidth, uprightHeight) = swap ? (sourceHeight, sourceWidth) : (sourceWidth, sourceHeight)
            let scale = min(1, Double(boxWidth) / Double(uprightWidth), Double(boxHeight) / Double(uprightHeight))
            return scaled(uprightWidth, uprightHeight, by: scale, swap: swap)
        case .cover(let boxWidth, let boxHeight):
            let swap = orientation.swapsDimensions
            let (uprightWidth, uprightHeight) = swap ? (sourceHeight, sourceWidth) : (sourceWidth, sourceHeight)
            let scale = min(1, max(Double(boxWidth) / Double(uprightWidth), Double(boxHeight) / Double(uprightHeight)))
            return scaled(uprightWidth, uprightHeight, by: scale, swap: swap)
        }
    }

    /// An upright size scaled by `scale`, rounded, at least one pixel, in stored orientation.
    private func scaled(_ uprightWidth: Int, _ uprightHeight: Int, by scale: Double, swap: Bool) -> (width: Int, height: Int) {
        let width = max(1, Int((Double(uprightWidth) * scale).rounded()))
        let height = max(1, Int((Double(uprightHeight) * scale).rounded()))
        return swap ? (height, width) : (width, height)
    }
}
