/// A high-quality separable image scaler for ``Bitmap``s of any ``PixelFormat``.
///
/// Reducing runs in two stages, as `vipsthumbnail` does: first an exact integer box shrink by
/// `k = floor(factor / shrinkGap)` per axis (each source pixel read once, averaged over `k x k`
/// blocks), which leaves a residual factor between `shrinkGap` and `2 * shrinkGap`; then the chosen
/// ``ResampleFilter`` (Lanczos3 by default) with precomputed per-output-pixel weights whose support
/// is widened by the residual factor. Colour is filtered premultiplied by alpha, so the colour
/// of transparent pixels never bleeds into visible ones; results are rounded and clamped to 0...255.
///
/// Upscaling works too (the kernel is then not widened), as do 1-pixel-wide or -high images.
/// A `Resampler` holds only options; every call is independent, so one value can be shared by
/// any number of tasks.
public struct Resampler: Sendable, Hashable {
    /// The filter used after the box shrink.
    public var filter: ResampleFilter
    /// The box shrink stops when the remaining factor is below `2 * shrinkGap`, so the filter always
    /// sees at least `shrinkGap` source samples per output pixel (libvips' default gap is 2).
    /// `.area` never box-shrinks: it is exact area averaging in one step.
    public var shrinkGap: Double

    /// Creates a resampler; the defaults match `vipsthumbnail` (Lanczos3, gap 2).
    public init(filter: ResampleFilter = .lanczos3, shrinkGap: Double = 2) {
        precondition(shrinkGap >= 1, "shrinkGap must be at least 1")
        self.filter = filter
        self.shrinkGap = shrinkGap
    }

    /// Lanczos3 with the libvips-like integer pre-shrink.
    public static let `default` = Resampler()

    /// Scales `bitmap` to exactly `width` x `height` pixels, keeping its pixel format.
    /// Returns the input unchanged when the size already matches.
    public func scale(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        scale(bitmap, width: width, height: height, extent: nil)
    }

    /// ``scale(_:width:height:)`` of a bitmap whose picture spans `extent` of its pixels, where its last
    /// column or row stands for part of a pixel only (a JPEG decoded at 1/2 from 501 rows has 251 rows
    /// spanning 250.5); nil for the whole bitmap.
    public func scale(_ bitmap: Bitmap, width: Int, height: Int, extent: (width: Double, height: Double)?) -> Bitmap {
        precondition(width > 0 && height > 0, "target size must be positive")
        if width == bitmap.width && height == bitmap.height { return bitmap }
        let kx = boxFactor(from: bitmap.width, to: width)
        let ky = boxFactor(from: bitmap.height, to: height)
        var job = ResampleJob(source: bitmap, width: width, height: height, boxX: kx, boxY: ky, filter: filter)
        if let extent {
            job.extentX = min(max(extent.width, Double(bitmap.width - 1)), Double(bitmap.width))
            job.extentY = min(max(extent.height, Double(bitmap.height - 1)), Double(bitmap.height))
        }
        return job.run()
    }

    /// Scales `bitmap` so its longest edge is `longestEdge`, keeping the aspect ratio and never
    /// upscaling (see ``targetSize(forSourceWidth:height:longestEdge:)``).
    public func scale(_ bitmap: Bitmap, longestEdge: Int) -> Bitmap {
        let size = targetSize(forSourceWidth: bitmap.width, height: bitmap.height, longestEdge: longestEdge)
        return scale(bitmap, width: size.width, height: size.height)
    }

    /// The integer block size for the box shrink along one axis (1 = no box shrink).
    func boxFactor(from source: Int, to target: Int) -> Int {
        guard filter != .area else { return 1 }
        let factor = Double(source) / Double(target)
        return max(1, Int((factor / shrinkGap).rounded(.down)))
    }
}
