import GalleryKit

/// imgproxy's resizing types on top of the pipeline: which ``ImageRequest/Size`` to ask the pipeline
/// for (so the codec reduces as far as it can), then the steps the pipeline does not do (enlarge,
/// crop by gravity, force, blur) on the small bitmap it hands back.
struct Resize {
    var options: ProcessingOptions

    /// No side may exceed this even when asked (a 16384-pixel request stays refusable by megapixels).
    static let unbounded = 1 << 20

    /// The size the pipeline should decode to.
    var pipelineSize: ImageRequest.Size {
        let (w, h) = (options.scaledWidth, options.scaledHeight)
        if w == 0 && h == 0 { return .full }
        switch options.resizingType {
        case .fit:
            return .fit(width: w == 0 ? Self.unbounded : w, height: h == 0 ? Self.unbounded : h)
        case .fill, .fillDown, .auto, .force:
            if w == 0 || h == 0 {
                // One side free: fill is fit; force keeps the source's other side, which needs every pixel.
                return options.resizingType == .force ? .full
                    : .fit(width: w == 0 ? Self.unbounded : w, height: h == 0 ? Self.unbounded : h)
            }
            return .cover(width: w, height: h)
        }
    }

    /// The most pixels the final bitmap can have, from the pipeline's `bitmap`: only enlarge and force grow it.
    func pixelBound(from bitmap: Bitmap) -> Double {
        let (w, h) = (Double(options.scaledWidth), Double(options.scaledHeight))
        let (bw, bh) = (Double(bitmap.width), Double(bitmap.height))
        var bound = bw * bh
        if options.resizingType == .force, w > 0 || h > 0 { bound = max(bound, (w > 0 ? w : bw) * (h > 0 ? h : bh)) }
        if options.enlarge {
            let scale = max(w > 0 ? w / bw : 0, h > 0 ? h / bh : 0, 1)
            bound = max(bound, bw * bh * scale * scale)
        }
        return bound
    }

    /// The final bitmap from the pipeline's.
    func finish(_ bitmap: Bitmap, resampler: Resampler) -> Bitmap {
        var image = bitmap
        let (w, h) = (options.scaledWidth, options.scaledHeight)
        let gravity = ProcessingOptions.Gravity(type: options.gravity.type, x: options.gravity.x * options.dpr,
                                                y: options.gravity.y * options.dpr)
        if w > 0 || h > 0 {
            var type = options.resizingType
            if type == .auto {
                let boxLandscape = w >= h, imageLandscape = image.width >= image.height
                type = (w == 0 || h == 0 || boxLandscape != imageLandscape) ? .fit : .fill
            }
            switch type {
            case .fit, .auto:
                image = fit(image, w, h, resampler)
            case .fill where w == 0 || h == 0, .fillDown where w == 0 || h == 0:
                image = fit(image, w, h, resampler)
            case .fill:
                if options.enlarge, image.width < w || image.height < h {
                    let scale = max(Double(w) / Double(image.width), Double(h) / Double(image.height))
                    image = resampler.scale(image, width: max(w, Int((Double(image.width) * scale).rounded())),
                                            height: max(h, Int((Double(image.height) * scale).rounded())))
                }
                image = Crop.apply(image, width: w, height: h, gravity: gravity)
            case .fillDown:
                if image.width >= w && image.height >= h {
                    image = Crop.apply(image, width: w, height: h, gravity: gravity)
                } else {
                    // Too small to fill: the largest window of the box's aspect ratio, not enlarged.
                    let scale = min(Double(image.width) / Double(w), Double(image.height) / Double(h))
                    image = Crop.apply(image, width: max(1, Int((Double(w) * scale).rounded())),
                                       height: max(1, Int((Double(h) * scale).rounded())), gravity: gravity)
                }
            case .force:
                let tw = w == 0 ? image.width : w, th = h == 0 ? image.height : h
                let (fw, fh) = options.enlarge ? (tw, th) : (min(tw, max(image.width, 1)), min(th, max(image.height, 1)))
                if fw != image.width || fh != image.height { image = resampler.scale(image, width: fw, height: fh) }
            }
        }
        if options.blur > 0 { image = Blur.apply(image, sigma: options.blur * options.dpr) }
        return image
    }

    /// Fit inside the box (a free side unbounded); scaled up only with enlarge.
    private func fit(_ image: Bitmap, _ w: Int, _ h: Int, _ resampler: Resampler) -> Bitmap {
        let bw = w == 0 ? Double.infinity : Double(w), bh = h == 0 ? Double.infinity : Double(h)
        var scale = min(bw / Double(image.width), bh / Double(image.height))
        if !options.enlarge { scale = min(scale, 1) }
        let tw = max(1, Int((Double(image.width) * scale).rounded())), th = max(1, Int((Double(image.height) * scale).rounded()))
        return tw == image.width && th == image.height ? image : resampler.scale(image, width: tw, height: th)
    }
}
