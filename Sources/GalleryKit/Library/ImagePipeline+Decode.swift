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
