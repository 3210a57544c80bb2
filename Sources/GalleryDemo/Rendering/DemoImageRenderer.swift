import GalleryImaging

/// Derives demo images with our own codecs: decode the source photograph (reduced in the codec
/// when the output is small), crop the recipe's rectangle, resample to the photo's size with
/// Lanczos3, and encode as baseline JPEG, progressive JPEG or PNG (at zlib level 2: the demo's PNGs are
/// its largest photos, and libpng's default level took half of a first run's rendering).
///
/// Holds only the source list, so it is freely shareable; every call is independent and
/// deterministic (same libjpeg/libpng, same bytes).
public struct DemoImageRenderer: DemoImageRendering {
    public let sources: DemoSourcePhotos
    private let resampler = Resampler.default
    /// The PNGs' compression: 4.7x faster than libpng's default on the demo's PNGs, 12% larger.
    static let pngZlibLevel = 2

    public init(sources: DemoSourcePhotos) {
        self.sources = sources
    }

    public func render(_ photo: DemoPhoto, size: DemoImageSize) throws(DemoError) -> [UInt8] {
        let path = sources.file(for: photo.recipe).path
        let (width, height) = photo.dimensions(of: size)
        do {
            let bitmap = try croppedSource(path: path, photo: photo, outputWidth: width)
            let scaled = resampler.scale(bitmap, width: width, height: height)
            switch photo.format {
            case .png:
                return try ImageEncoder.encodePNG(scaled, zlibLevel: Self.pngZlibLevel)
            case .baselineJPEG:
                return try ImageEncoder.encodeJPEG(scaled, quality: photo.recipe.quality, optimizeHuffman: true)
            case .progressiveJPEG:
                return try ImageEncoder.encodeJPEG(scaled, quality: photo.recipe.quality, optimizeHuffman: true,
                                                   progressive: true)
            }
        } catch let error as DemoError {
            throw error
        } catch {
            throw .renderFailed(photoID: photo.id, size: size.rawValue, reason: "\(path): \(error)")
        }
    }

    /// The recipe's rectangle of the upright source, decoded at no more resolution than the output
    /// needs (JPEG DCT scaling makes a 100 px thumbnail of a 24 MP source cheap).
    private func croppedSource(path: String, photo: DemoPhoto, outputWidth: Int) throws -> Bitmap {
        let info = try ImageDecoder.probe(fileAt: path)
        let swaps = info.orientation.swapsDimensions
        let (uprightWidth, uprightHeight) = swaps ? (info.height, info.width) : (info.width, info.height)
        let aspect = Double(photo.width) / Double(photo.height)
        let crop = photo.recipe.cropRect(sourceWidth: uprightWidth, sourceHeight: uprightHeight, aspect: aspect)

        // Source pixels needed per output pixel, so the decoder may shrink by up to that much.
        let scale = min(1, Double(outputWidth) / Double(crop.width))
        let neededWidth = Int((Double(uprightWidth) * scale).rounded(.up))
        let neededHeight = Int((Double(uprightHeight) * scale).rounded(.up))
        let target = swaps ? DecodeTarget.covering(width: neededHeight, height: neededWidth)
                           : DecodeTarget.covering(width: neededWidth, height: neededHeight)
        let decoded = try ImageDecoder.decode(fileAt: path, options: DecodeOptions(target: target))
        let upright = decoded.bitmap.oriented(decoded.orientation)

        // Map the crop from source pixels to decoded pixels.
        let ratioX = Double(upright.width) / Double(uprightWidth)
        let ratioY = Double(upright.height) / Double(uprightHeight)
        let x = min(upright.width - 1, Int((Double(crop.x) * ratioX).rounded(.down)))
        let y = min(upright.height - 1, Int((Double(crop.y) * ratioY).rounded(.down)))
        let width = max(1, min(upright.width - x, Int((Double(crop.width) * ratioX).rounded())))
        let height = max(1, min(upright.height - y, Int((Double(crop.height) * ratioY).rounded())))
        return upright.cropped(x: x, y: y, width: width, height: height)
    }
}
