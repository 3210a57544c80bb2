import Foundation

extension ImagePipeline {
    /// Decodes `bytes` reduced as far as `request.size` allows, then scales to the exact size and
    /// makes the bitmap upright. Two jobs on the worker pool with a cancellation check between
    /// them, so a request abandoned during the decode does not also pay for the scale.
    func render(_ bytes: [UInt8], for request: ImageRequest) async throws(ImagePipelineError) -> Bitmap {
        let source = request.source
        let name = source.description
        let plan = DecodePlan(size: request.size, options: configuration.decodeOptions)
        let started = ContinuousClock.now
        // A job still queued when the task is cancelled is skipped by the pool; one already
        // running finishes (libjpeg and libpng have no cheap abort), and its result is dropped.
        let decoded = try await onWorker(source, stage: .decode) { [self] () throws(ImagePipelineError) in
            counters.withLock { $0.decodes += 1 }
            do throws(DecodeError) { return try plan.decode(bytes, name: name) } catch {
                throw ImagePipelineError(source: source, stage: .decode, reason: .decode(error))
            }
        }
        if Task.isCancelled { throw .cancelled(source, stage: .decode) }
        let (resampler, toSRGB) = (configuration.resampler, configuration.convertsToSRGB)
        let bitmap = try await onWorker(source, stage: .decode) { () throws(ImagePipelineError) in
            plan.finish(decoded, resampler: resampler, convertingToSRGB: toSRGB)
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        emit(.decoded(request, width: bitmap.width, height: bitmap.height, seconds: seconds))
        return bitmap
    }
}

/// How to get from encoded bytes to an upright bitmap of one ``ImageRequest/Size``.
struct DecodePlan: Sendable {
    var size: ImageRequest.Size
    var options: DecodeOptions

    /// The decode, reduced in the codec (DCT scaling, early Adam7 passes) as far as the size allows.
    func decode(_ bytes: [UInt8], name: String) throws(DecodeError) -> DecodedImage {
        var options = self.options
        switch size {
        case .full:
            options.target = .fullSize
        case .longestEdge(let edge):
            options.target = .longestEdge(edge)
        case .fit:
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
    func finish(_ decoded: DecodedImage, resampler: Resampler, convertingToSRGB: Bool = true) -> Bitmap {
        let target = storedSize(sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight,
                                orientation: decoded.orientation)
        let scaled = resampler.scale(decoded.bitmap, width: target.width, height: target.height)
        return (convertingToSRGB ? decoded.convertedToSRGB(scaled) : scaled).oriented(decoded.orientation)
    }

    /// The final size before orientation is applied, for a source stored at `sourceWidth` x `sourceHeight`.
    func storedSize(sourceWidth: Int, sourceHeight: Int, orientation: Orientation) -> (width: Int, height: Int) {
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
            let width = max(1, Int((Double(uprightWidth) * scale).rounded()))
            let height = max(1, Int((Double(uprightHeight) * scale).rounded()))
            return swap ? (height, width) : (width, height)
        }
    }
}
